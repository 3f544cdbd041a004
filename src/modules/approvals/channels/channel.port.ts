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
  /** Whether it can ask about this kind of approval at all; every kind when absent. */
  handles?(kind: ApprovalKind): boolean;
  /** Tells the owner there is something to decide. Throwing means "not delivered, try again later". */
  notifyPending(request: ApprovalNotice): Promise<void>;
  /**
   * Tells the owner how it ended (approved, rejected, expired). Throwing means "not shown, try again later": the
   * notices job retries it for an hour. What can never be shown (a message gone, a chat that blocked the bot) is not
   * thrown.
   */
  notifyResolved(request: ApprovalNotice): Promise<void>;
  /** What the channels screen shows of this user's link (a Telegram chat, a WhatsApp number); absent: always linked. */
  describe?(userId: string, db: Executor): Promise<ChannelView>;
}

/**
 * Thrown by a channel the messaging service turned away for a while and said for how long (Telegram's 429 with
 * `retry_after`): the notice stays owed and is not retried before then.
 */
export class ChannelBusy extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'ChannelBusy';
  }
}

/** One channel as `GET /v1/approval-channels` shows it. */
export interface ChannelView {
  name: ApprovalChannelName;
  linked: boolean;
  linked_at: string | null;
  /** The linked Telegram username. */
  username: string | null;
  /** The linked WhatsApp number, masked (`+54 •••• 1234`). */
  phone: string | null;
  /** `active`, or why the channel cannot reach the owner now (`undeliverable`, `template_error`); null when unlinked. */
  state: string | null;
  /** The last error the messaging service reported for this link, in its words. */
  problem: { code: number; message: string; at: string } | null;
}

/** What is being asked, in the terms an owner needs to decide. Amounts in centavos. */
export interface ApprovalNotice {
  id: string;
  userId: string;
  kind: ApprovalKind;
  status: ApprovalStatus;
  expiresAt: string;
  /** Who ended it (`dashboard`, `telegram`, `whatsapp`, `expiry`, or `policy` when approving's re-check ended it, D28). */
  decidedVia?: string | null;
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
    /** Pending, and the owner changed since the limits it was made against: approving it would be refused (D13). */
    limitsChanged?: boolean;
  };
}

/**
 * How long a node that took an inbound update (a Telegram update, a WhatsApp message) holds it while handling it.
 * A redelivery meanwhile is answered 503 so the messaging platform delivers it again later; once the hold has lapsed
 * without the node finishing (it died), a redelivery handles it. Longer than any handling takes: the owner's lock
 * wait, the destination re-check and the submission at the rail, the answers sent back.
 */
export const INBOUND_HOLD_MS = 2 * 60_000;
