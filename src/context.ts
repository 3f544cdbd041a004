import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Store } from './db/database.js';
import type { ApprovalKinds } from './modules/approvals/approval-kinds.js';
import type { ApprovalChannel } from './modules/approvals/channels/channel.port.js';
import type { BankRail } from './modules/rail/rail.port.js';
import type { Metrics } from './modules/metrics/metrics.js';
import type { SandboxRail } from './modules/rail/sandbox/sandbox-rail.js';
import type { WebhookSender } from './modules/webhooks/sender.port.js';
import type { Clock } from './shared/clock.js';
import type { SecretBox } from './shared/secret-box.js';

/**
 * What service functions need from the world: configuration, the store, the clock and the outside ports.
 * Built once in `buildApp`; REST routes and MCP tools hand the same object to the same service functions.
 */
export interface AppContext {
  config: Config;
  store: Store;
  clock: Clock;
  log: FastifyBaseLogger;
  rail: BankRail;
  /** The simulated bank behind the sandbox helpers (D26); the same ledger `rail` reaches in sandbox mode. */
  sandboxRail: SandboxRail;
  /** The approval channels configured in APPROVAL_CHANNELS (D23), in that order. */
  channels: ApprovalChannel[];
  /** What deciding each kind of approval means, registered by the module that owns the kind. */
  approvalKinds: ApprovalKinds;
  webhookSender: WebhookSender;
  secretBox: SecretBox;
  /** Counters and gauges for `GET /metrics`. */
  metrics: Metrics;
  /** Asks the payout follow-up to run when an attempt's next check falls due (set once the jobs exist). */
  followUpAt?: (nextCheckAt: string) => void;
}
