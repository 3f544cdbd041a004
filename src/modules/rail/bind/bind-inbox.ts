import type { Store } from '../../../db/database.js';
import type { Clock } from '../../../shared/clock.js';
import { NoticeQueue } from '../notice-queue.js';
import type { IncomingAck, IncomingNotice, TransferLeg } from '../rail.port.js';
import { centavosOf, type BindTransfer } from './bind-wire.js';

/** Answered rows are kept this long, beyond the reconciliation's look-back, so neither brings them back. */
export const INBOX_KEEP_DONE_MS = 7 * 24 * 3600 * 1000;


/** A date BIND gave, unless missing or not plausible: a notice captured from BIND carried `end_date` 2999-12-31. */
function plausible(date: string | null | undefined, at: string): string | null {
  if (!date) return null;
  const t = Date.parse(date);
  return Number.isFinite(t) && t <= Date.parse(at) + 24 * 3600 * 1000 ? date : null;
}

/** BIND's states of a transfer whose money has not arrived (or never will). */
const NOT_ARRIVED = new Set(['IN_PROGRESS', 'PENDING', 'FAILED', 'UNKNOWN', 'UNKNOWN_FOREVER']);

/**
 * An incoming transfer as BIND describes it (webhook `data`, or an item of the transfers listing) → the credit
 * the port reports. Null when it is not a completed credit to one of our CVUs with an exact amount.
 */
export function creditOf(t: BindTransfer, at: string): { id: string; cvu: string; leg: TransferLeg } | null {
  const cvu = t.details?.origin_credit?.cvu;
  const amount = centavosOf(t.charge?.value?.amount);
  // The reconciliation's listing is not filtered by state (its received items carry their type as `status`): one
  // whose state says the money has not arrived is no deposit yet.
  if (!t.id || NOT_ARRIVED.has(t.status) || !cvu || amount === null || amount <= 0 || (t.charge?.value?.currency ?? 'ARS') !== 'ARS') return null;
  return {
    id: t.id,
    cvu,
    leg: {
      id: t.id,
      from: t.counterparty?.account_routing?.address || t.details?.origin_debit?.cvu || '',
      to: cvu,
      fromLegalId: t.counterparty?.id || t.details?.origin_debit?.cuit || '',
      toLegalId: t.details?.origin_credit?.cuit ?? '',
      fromName: t.counterparty?.name ?? '',
      toName: '',
      amountCentavos: amount,
      currency: 'ARS',
      status: 'COMPLETED',
      creationTime: plausible(t.end_date, at) ?? plausible(t.start_date, at) ?? at,
      direction: 'credit',
      isReversal: false,
    },
  };
}

/** How an unreadable notice's failure reason starts: a readable copy of it, arriving later, takes its place. */
const UNREADABLE = 'unreadable: ';

/**
 * Why an incoming transfer to a CVU, BIND's money arrived, is no credit we can take (an amount that is not exact
 * centavos, another currency), or null when creditOf takes it, or it names no transfer or no CVU. Such a notice is
 * kept as failed with this reason: the money is at BIND, and the operator's alert on failed rows is how anyone
 * learns of it (docs/bank-rail.md).
 */
export function unreadableCredit(t: BindTransfer | undefined, at: string): string | null {
  // One that names no CVU is not to one of our wallets (the collection account's own funding, say): not ours to flag.
  if (!t?.id || NOT_ARRIVED.has(t.status) || !t.details?.origin_credit?.cvu || creditOf(t, at)) return null;
  const currency = t.charge?.value?.currency ?? 'ARS';
  if (currency !== 'ARS') return `${UNREADABLE}currency ${String(currency).slice(0, 10)}, not ARS`;
  return `${UNREADABLE}amount not exact centavos above zero: ${JSON.stringify(t.charge?.value?.amount ?? null).slice(0, 40)}`;
}

/**
 * D43's inbox: BIND's notices of incoming transfers in our store, keyed by BIND's id (a repeat is a no-op),
 * handed out with leases by the same queue as the sandbox bank's notices (`NoticeQueue`); answered rows stay as
 * `done` until pruned, so a repeated webhook or reconciliation finds them.
 */
export class BindInbox {
  /** Answered notices are kept as `done`: BIND's id must keep refusing a repeated webhook or reconciliation. */
  private readonly queue: NoticeQueue;

  constructor(
    private readonly store: Pick<Store, 'db' | 'dialect'>,
    private readonly clock: Clock,
  ) {
    this.queue = new NoticeQueue(store.db, store.dialect, clock, 'bind_inbox', 'keep');
  }

  /**
   * Inserts the notice unless BIND's id is already there, or there only as unreadable (a later copy BIND sent
   * readable, by webhook or in the listing, takes its place). True when it was new.
   */
  async insert(n: { id: string; cvu: string; leg: TransferLeg }, source: 'webhook' | 'reconciliation'): Promise<boolean> {
    const at = this.clock.now().toISOString();
    const row = { id: n.id, cvu: n.cvu, leg: JSON.stringify(n.leg), source, status: 'pending' as const, attempts: 0, lock_token: null, locked_until: null, failure_reason: null, created_at: at, updated_at: at };
    const r = await this.store.db
      .insertInto('bind_inbox')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet(row).where('bind_inbox.failure_reason', 'like', `${UNREADABLE}%`))
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** A notice that is no credit we can take (see unreadableCredit): kept as failed, with its reason, unless already there. */
  async insertUnreadable(t: BindTransfer, reason: string, source: 'webhook' | 'reconciliation'): Promise<void> {
    const at = this.clock.now().toISOString();
    const cvu = t.details?.origin_credit?.cvu ?? '';
    await this.store.db
      .insertInto('bind_inbox')
      .values({ id: t.id, cvu, leg: JSON.stringify({ id: t.id, charge: t.charge ?? null }), source, status: 'failed', attempts: 0, lock_token: null, locked_until: null, failure_reason: reason, created_at: at, updated_at: at })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  /** Which of these ids the inbox already holds (the reconciliation inserts only the others). */
  async known(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.store.db
      .selectFrom('bind_inbox')
      .select('id')
      .where('id', 'in', [...ids])
      .where((eb) => eb.or([eb('failure_reason', 'is', null), eb('failure_reason', 'not like', `${UNREADABLE}%`)]))
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  take(limit: number): Promise<IncomingNotice[]> {
    return this.queue.take(limit);
  }

  ack(acks: readonly IncomingAck[]): Promise<void> {
    return this.queue.ack(acks);
  }

  oldestPending(): Promise<string | null> {
    return this.queue.oldestPending();
  }

  /** Forgets answered rows older than the reconciliation can look back. */
  async prune(): Promise<void> {
    const before = new Date(this.clock.now().getTime() - INBOX_KEEP_DONE_MS).toISOString();
    await this.store.db.deleteFrom('bind_inbox').where('status', '=', 'done').where('updated_at', '<', before).execute();
  }
}
