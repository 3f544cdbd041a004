import type { EventsTables } from '../modules/events/events.tables.js';
import type { KeysTables } from '../modules/keys/keys.tables.js';
import type { SandboxRailTables } from '../modules/rail/sandbox/sandbox.tables.js';
import type { ThresholdsTables } from '../modules/thresholds/thresholds.tables.js';
import type { PayoutsTables } from '../modules/payouts/payouts.tables.js';
import type { ApprovalsTables } from '../modules/approvals/approvals.tables.js';
import type { IdempotencyTables } from '../modules/idempotency/idempotency.tables.js';
import type { AuditTables } from '../modules/audit/audit.tables.js';
import type { WebhooksTables } from '../modules/webhooks/webhooks.tables.js';
import type { TelegramTables } from '../modules/telegram/telegram.tables.js';
import type { WhatsAppTables } from '../modules/whatsapp/whatsapp.tables.js';
import type { WalletTables } from '../modules/wallet/wallet.tables.js';
import type { UsersTables } from '../modules/users/users.tables.js';
import type { TransactionsTables } from '../modules/transactions/transactions.tables.js';
import type { OAuthTables } from '../modules/oauth/oauth.tables.js';
import type { BindTables } from '../modules/rail/bind/bind.tables.js';

/** The whole store as Kysely sees it: each module declares and migrates its own tables. */
export interface Database extends UsersTables, KeysTables, SandboxRailTables, EventsTables, WalletTables,
    ThresholdsTables, PayoutsTables, ApprovalsTables, IdempotencyTables, AuditTables, WebhooksTables, TelegramTables,
    TransactionsTables, BindTables, WhatsAppTables, OAuthTables {}
