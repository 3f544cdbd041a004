import type { HostEntry } from './http/allowed-hosts.js';

/** The parsed configuration (`parseConfig` in config.ts builds it; nothing else reads the environment). */
export const APPROVAL_CHANNEL_NAMES = ['dashboard', 'telegram', 'whatsapp'] as const;
export type ApprovalChannelName = (typeof APPROVAL_CHANNEL_NAMES)[number];

export interface Config {
  port: number;
  host: string;
  /**
   * D44: where clients reach the service (scheme, host, port; no path), e.g. `https://wallet.example.com`: the
   * OAuth issuer and the base of the MCP resource's URL. Empty: `http://` and the listen address.
   */
  publicUrl: string;
  dataDir: string;
  /** Empty means the embedded SQLite store in `dataDir`. */
  databaseUrl: string;
  /**
   * PostgreSQL connections this node keeps at most for requests. Nodes sharing one database (D29) must fit its
   * `max_connections` together (each node also keeps `postgres.jobsPoolMax` for its background jobs).
   */
  databasePoolMax: number;
  /** D42: requests a node serves at once; past it the next answers 503 before it starts (safety actions excepted). */
  maxRequestsInFlight: number;
  /** PostgreSQL: the bounds of every wait (D42); past one a request answers 503 and keeps nothing. */
  postgres: {
    /** Connections of the background jobs' own pool. */
    jobsPoolMax: number;
    /** Longest wait for a pooled connection. */
    checkoutTimeoutMs: number;
    /**
     * Callers waiting for a connection beyond which the next is refused at once (503) rather than queued: a
     * backstop, since `maxRequestsInFlight` sheds at the door first.
     */
    maxWaiting: number;
    statementTimeoutMs: number;
    lockTimeoutMs: number;
    idleInTransactionTimeoutMs: number;
  };
  /**
   * How SQLite's commits reach the disk; both answer nobody before it. `background`: the log is synced on a
   * worker thread while requests go on. `inline`: SQLite's own `synchronous=FULL`, each COMMIT
   * blocking the event loop for its sync.
   */
  sqliteSync: 'background' | 'inline';
  /**
   * SQLite's page cache, in MiB, allocated as pages are used. With SQLite's own 2 MiB, a read of one of
   * 1,000 active users cost 25-40 % more CPU than with 64: its pages had been pushed out by other users' pages.
   */
  sqliteCacheMb: number;
  /** Empty means in-process rate-limit counters. */
  redisUrl: string;
  /** Empty means "generate once and keep in dataDir" (resolved by main before buildApp). */
  jwtSecret: string;
  /** Key for secrets encrypted at rest (webhook secrets). Empty = generated once in dataDir, like jwtSecret. */
  secretsKey: string;
  jwtExpirySeconds: number;
  defaults: {
    perTxLimitArs: number;
    dailyLimitArs: number;
    monthlyLimitArs: number;
    requireApprovalAboveArs: number;
    whitelistCbus: string[];
  };
  absoluteCapArs: number;
  approvalTtlSeconds: number;
  approvalChannels: ApprovalChannelName[];
  /** D14, D35: the agents' budget per user (API-key sessions and MCP), and per client address without a user. */
  rateLimitPerMinute: number;
  /** D35: the owner's sessions' own budget per user, sized so the dashboard never runs out. */
  ownerRateLimitPerMinute: number;
  /**
   * D35: the owner's safety actions (log in, pause, resume, key revocation and edits, approve, reject, cancel)
   * count only against this abuse ceiling of their own, never against a budget an agent or the dashboard spends.
   */
  safetyActionsPerMinute: number;
  /** How long an approved payout may wait for its in-request submission before the follow-up job takes it (D19). */
  payoutSubmissionGraceMs: number;
  /** When set, `GET /metrics` needs `Authorization: Bearer <token>`; empty, it is open like the health checks. */
  metricsToken: string;
  /**
   * D30: Fastify `trustProxy`. `false`: the client is the TCP peer. `true`: the leftmost X-Forwarded-For (only
   * safe behind a proxy that replaces the header; one that appends passes on what the client wrote, and warns at
   * start). A comma list of proxy addresses/CIDRs trusts just those hops: the recommended setting.
   */
  trustProxy: boolean | string;
  /** D41: the hosts `/mcp` answers to (`ALLOWED_HOSTS`; default the listen address and the localhost forms). */
  allowedHosts: HostEntry[];
  webhook: {
    pollIntervalMs: number;
    retryDelaysMs: number[];
    timeoutMs: number;
    allowPrivateNetworks: boolean;
  };
  sandboxConfirmDelayMs: number;
  /** How often internal jobs run: rail settlement, deposit detection, payout follow-up. */
  jobsIntervalMs: number;
  /** `answerWithinMs`: how long a button press waits for its decision before Telegram is told it is under way. */
  telegram: { botToken: string; webhookSecret: string; apiRoot: string; answerWithinMs: number };
  /**
   * The dashboard's live stream (`GET /v1/events/stream`): how often each node reads the state of its open
   * dashboards for changes made on other nodes, and how often an idle stream sends a keep-alive comment.
   */
  live: { pollMs: number; heartbeatMs: number };
  /**
   * D45: the WhatsApp Cloud API. `template` is the approved template (`name:language`, e.g.
   * `aprobacion_pago:es_AR`) with four body parameters and two quick-reply buttons; `apiRoot` is the Graph API
   * with its version (tests point it at a fake).
   */
  whatsapp: {
    token: string;
    phoneNumberId: string;
    appSecret: string;
    verifyToken: string;
    template: { name: string; language: string };
    /** An agent's proposal of limits (D45); null: such proposals are not asked on WhatsApp. */
    limitsTemplate: { name: string; language: string } | null;
    apiRoot: string;
  };
  logLevel: string;
  /** D43: which bank rail holds the money. `sandbox` (default) is the simulated bank; `bind` is BIND's PSP API. */
  bankRail: 'sandbox' | 'bind';
  /** BIND's settings; null unless `bankRail` is `bind` (docs/bank-rail.md). */
  bind: BindConfig | null;
  /** D26: the sandbox helpers answer only in sandbox mode, that is with the sandbox bank as the rail. */
  sandbox: boolean;
}

export interface BindConfig {
  apiUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  /** Optional mutual TLS: PEM files read at start. */
  clientCertFile: string;
  clientKeyFile: string;
  caFile: string;
  /** The secret path segment of `POST /v1/rails/bind/webhook/{token}` (D43: BIND documents no signature). */
  webhookToken: string;
  /** Source addresses allowed to call the webhook (IPs or CIDRs); empty = any. */
  webhookAllowedIps: string[];
  /** Every call to BIND gives up after this long; an unanswered transfer is `unknown`, never failed (D19, D43). */
  timeoutMs: number;
  /** How often the reconciliation job lists BIND's recent credits to find notices a lost webhook missed. */
  reconcileIntervalMs: number;
}
