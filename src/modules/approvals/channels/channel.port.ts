import type { ApprovalChannelName } from '../../../config.js';
import type { Executor } from '../../../db/database.js';
import type { ApprovalKind, ApprovalStatus } from '../approvals.tables.js';

/**
 * How the owner hears about something to decide (D23). The dashboard channel shows it in `GET /v1/approvals`;
 * the Telegram channel sends a message with buttons. Decisions come back through the approvals service.
 */
export interface ApprovalChannel {
  readonly name: ApprovalChannelName;
  /** Whether this channel can reach the user now (e.g. a linked Telegram chat), read through `db`. */
  isAvailable(userId: string, db: Executor): Promise<boolean>;
  /** Tells the owner there is something to decide. Throwing means "not delivered, try again later". */
  notifyPending(request: ApprovalNotice): Promise<void>;
  /** Tells the owner how it ended (approved, rejected, expired). Best effort. */
  notifyResolved(request: ApprovalNotice): Promise<void>;
}

/** What is being asked, in the terms an owner needs to decide. Amounts in centavos. */
export interface ApprovalNotice {
  id: string;
  userId: string;
  kind: ApprovalKind;
  status: ApprovalStatus;
  expiresAt: string;
  apiKeyName: string | null;
  payout?: {
    id: string;
    amount: number;
    destination: string;
    destinationKind: string;
    recipientName: string | null;
    reasons: string[];
    note: string | null;
  };
  thresholdChange?: {
    current: Record<string, unknown>;
    proposed: Record<string, unknown>;
  };
}
