import type { DestinationKind } from '../../shared/ar-identifiers.js';

/**
 * The bank rail: the one outside system that holds the money. Shaped after an Argentine BaaS CVU API (BIND's
 * transfer API; mapping in docs/bank-rail.md): transfers carry our own idempotent reference (`origin_id`),
 * their status is asynchronous, and an unknown outcome is answered by asking again by reference, never by
 * resending (D19).
 */
export interface BankRail {
  /** Opens the customer's virtual account. Idempotent on `ownerRef`: a second call returns the same account. */
  openAccount(input: { ownerRef: string; legalId: string; legalName: string }): Promise<RailAccount>;
  /** The holder behind a CBU, CVU or alias, or null when the rail knows no such account. */
  resolve(kind: DestinationKind, value: string): Promise<ResolvedAccount | null>;
  /** Available balance in centavos. */
  getBalance(cvu: string): Promise<number>;
  /** Transfer legs to and from the account, newest first. */
  listLegs(cvu: string, limit: number): Promise<TransferLeg[]>;
  submitTransfer(req: TransferRequest): Promise<SubmitOutcome>;
  /** The transfer we submitted with `reference`, or null if the rail never received it. */
  getTransfer(reference: string): Promise<RailTransfer | null>;
  /**
   * `getTransfer` for many references at once (the follow-up job's batch): the transfers the rail has, by
   * reference; a reference missing from the map is one the rail never received. Throws when the rail could not
   * answer. A rail with no batch query answers it with one `getTransfer` per reference; when some of those go
   * unanswered and others not, it throws `RailPartialAnswer` with what it learned, so that one transfer the rail
   * will not answer for holds back none of the others (D29).
   */
  getTransfers(references: readonly string[]): Promise<Map<string, RailTransfer>>;
  /**
   * Takes up to `limit` notices of completed incoming credits not yet acknowledged, each leased to the caller
   * for a while: two callers never hold the same notice at once, and an unacknowledged one comes back once its
   * lease ends (a notice taken too often without an answer is set aside as failed, D29). Empty when none is due.
   */
  takeIncoming(limit: number): Promise<IncomingNotice[]>;
  /**
   * Answers taken notices: without `failureReason` the notice is done and never taken again; with one it is set
   * aside as failed with that reason. An answer for a notice whose lease was lost meanwhile changes nothing.
   */
  ackIncoming(acks: readonly IncomingAck[]): Promise<void>;
  /** When the oldest notice not yet answered arrived (ISO 8601), or null when none waits (for /metrics). */
  oldestIncoming(): Promise<string | null>;
}

/**
 * The rail telling us money arrived (BIND/BaaS: an incoming-transfer webhook kept in an inbox table). Delivery
 * is at least once, so whoever consumes it must be idempotent on `leg.id`.
 */
export interface IncomingNotice {
  /** Opaque; hand it back to `ackIncoming`. */
  handle: string;
  /** The customer account (CVU) that was credited. */
  cvu: string;
  /** The completed credit leg, as `listLegs` would show it. */
  leg: TransferLeg;
}

export interface IncomingAck {
  handle: string;
  /** Set when the notice cannot be processed (say, no wallet holds the account): it is kept, never retried. */
  failureReason?: string;
  /**
   * Set when the notice was not processed only because our store could not serve (D42): it comes back when its
   * lease ends, and this take does not count toward setting it aside as poison.
   */
  storeUnavailable?: boolean;
}

export interface RailAccount {
  cvu: string;
  alias: string;
}

export interface ResolvedAccount {
  kind: DestinationKind;
  /** The 22-digit account behind an alias, or the number itself. */
  accountNumber: string;
  holderName: string;
  holderLegalId: string;
  /** The institution's name when the rail gives one (BIND `bancoNombre`); the BCRA table names CBU banks too. */
  bankName?: string | null;
}

export type RailTransferStatus = 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

export interface TransferRequest {
  /** Our idempotent reference (BIND `origin_id`): the same reference never moves money twice. */
  reference: string;
  fromCvu: string;
  toKind: DestinationKind;
  to: string;
  amountCentavos: number;
  description?: string;
}

export interface RailTransfer {
  reference: string;
  providerTransferId: string;
  /** The Coelsa id of the transfer, when the rail gives one (BIND): the reference banks use for claims. */
  coelsaId?: string;
  status: RailTransferStatus;
  failureReason: string | null;
  counterpartyName: string | null;
  counterpartyLegalId: string | null;
  /** The 22-digit account that received it (an alias resolved). */
  counterpartyAccount: string | null;
  /**
   * While `IN_PROGRESS`: when the rail expects to settle it (ISO 8601), so a follow-up can ask then rather than
   * at once. Absent when the rail cannot say or the transfer is already final.
   */
  settlesAfter?: string;
}

/** What a submission can come to; callers must branch on each. */
export type SubmitOutcome =
  | { kind: 'accepted'; transfer: RailTransfer }
  | { kind: 'rejected'; reason: RailRejectReason; message: string }
  /**
   * Timeout, lost answer or a server error: the money may or may not have moved. Reconcile with getTransfer, no
   * earlier than `notBefore` (ISO 8601) when the rail said when to ask again (HTTP 503 with Retry-After).
   */
  | { kind: 'unknown'; message: string; notBefore?: string }
  /**
   * The rail turned the call away before acting on it (HTTP 429, credentials it refused, or it was never asked):
   * nothing can move for this request. Submit again with the same reference, no earlier than `notBefore`.
   */
  | { kind: 'turned_away'; message: string; notBefore?: string };

/** A rail that asked us to wait (HTTP 429/503 with Retry-After): its reads throw this; ask again no earlier than `notBefore`. */
export class RailBusyError extends Error {
  constructor(
    message: string,
    readonly notBefore: string,
  ) {
    super(message);
    this.name = 'RailBusyError';
  }
}

/** `getTransfers` answered for some references only: `known` as its map would be, `unanswered` not known either way. */
export class RailPartialAnswer extends Error {
  constructor(
    readonly known: Map<string, RailTransfer>,
    readonly unanswered: readonly string[],
    readonly firstError: unknown,
    /** Unanswered transfers the rail said to ask about again no earlier than a time of their own (ISO 8601). */
    readonly waits: ReadonlyMap<string, string> = new Map(),
  ) {
    super(`the rail answered for ${known.size} transfers and not for ${unanswered.length}`);
    this.name = 'RailPartialAnswer';
  }
}

export type RailRejectReason = 'insufficient_funds' | 'destination_not_found' | 'destination_rejected' | 'invalid_request';

export interface TransferLeg {
  id: string;
  from: string;
  to: string;
  fromLegalId: string;
  toLegalId: string;
  fromName: string;
  toName: string;
  amountCentavos: number;
  currency: 'ARS';
  status: string;
  creationTime: string;
  direction: 'credit' | 'debit';
  /** A reversal puts back money of a transfer that failed after acceptance; it is not a new deposit. */
  isReversal: boolean;
}
