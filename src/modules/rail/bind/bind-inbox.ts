import { randomUUID } from 'node:crypto';
import type { Store } from '../../../db/database.js';
import type { Clock } from '../../../shared/clock.js';
import type { IncomingAck, IncomingNotice, TransferLeg } from '../rail.port.js';
import type { BindInboxTable } from './bind.tables.js';
import { centavosOf, type BindTransfer } from './bind-wire.js';

/** Long enough for a batch to be recorded; a holder that dies lets the notices come back after it. */
export const INBOX_LEASE_MS = 60_000;
/** A notice taken this often without an answer is poison: set aside as failed rather than retried forever (D29). */
export const INBOX_MAX_TAKES = 5;
/** Answered rows are kept this long, beyond the reconciliation's look-back, so neither brings them back. */
export const INBOX_KEEP_DONE_MS = 7 * 24 * 3600 * 1000;

const HANDLE_SEPARATOR = '~';

/**
 * An incoming transfer as BIND describes it (webhook `data`, or an item of the transfers listing) → the credit
 * the port reports. Null when it is not a completed credit to one of our CVUs with an exact amount.
 */
export function creditOf(t: BindTransfer, at: string): { id: string; cvu: string; leg: TransferLeg } | null {
  const cvu = t.details?.origin_credit?.cvu;
  const amount = centavosOf(t.charge?.value?.amount);
  if (!t.id || !cvu || amount === null || amount <= 0 || (t.charge?.value?.currency ?? 'ARS') !== 'ARS') return null;
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
      creationTime: t.end_date || t.start_date || at,
      direction: 'credit',
      isReversal: false,
    },
  };
}

/**
 * D43's inbox: BIND's notices of incoming transfers in our store, keyed by BIND's id (a repeat is a no-op),
 * handed out with leases exactly as docs/bank-rail.md "Deposit detection" says: on PostgreSQL one UPDATE over a
 * FOR UPDATE SKIP LOCKED subquery, so nodes sharing the database take disjoint batches; answered rows become
 * `done` (conditional on the lease token), failed ones keep their reason.
 */
export class BindInbox {
  constructor(
    private readonly store: Pick<Store, 'db' | 'dialect'>,
    private readonly clock: Clock,
  ) {}

  /** Inserts the notice unless BIND's id is already there. True when it was new. */
  async insert(n: { id: string; cvu: string; leg: TransferLeg }, source: 'webhook' | 'reconciliation'): Promise<boolean> {
    const at = this.clock.now().toISOString();
    const r = await this.store.db
      .insertInto('bind_inbox')
      .values({ id: n.id, cvu: n.cvu, leg: JSON.stringify(n.leg), source, status: 'pending', attempts: 0, lock_token: null, locked_until: null, failure_reason: null, created_at: at, updated_at: at })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Which of these ids the inbox already holds (the reconciliation inserts only the others). */
  async known(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.store.db.selectFrom('bind_inbox').select('id').where('id', 'in', [...ids]).execute();
    return new Set(rows.map((r) => r.id));
  }

  async take(limit: number): Promise<IncomingNotice[]> {
    const now = this.clock.now();
    const nowIso = now.toISOString();
    const db = this.store.db;
    const due = () =>
      db
        .selectFrom('bind_inbox')
        .select('id')
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', nowIso)]))
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit);
    const postgres = this.store.dialect === 'postgres';
    // SQLite: a plain indexed read first, so an idle pass writes nothing; the update stays conditional.
    const ids = postgres ? null : (await due().execute()).map((r) => r.id);
    if (ids && ids.length === 0) return [];
    const token = randomUUID();
    const claimed = await db
      .updateTable('bind_inbox')
      .set((eb) => ({
        lock_token: token,
        locked_until: new Date(now.getTime() + INBOX_LEASE_MS).toISOString(),
        attempts: eb('attempts', '+', 1),
        updated_at: nowIso,
      }))
      .where('id', 'in', ids ?? due().forUpdate().skipLocked())
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', nowIso)]))
      .returningAll()
      .execute();
    const poison = claimed.filter((n) => n.attempts > INBOX_MAX_TAKES);
    if (poison.length > 0) await this.fail(poison.map((n) => n.id), token, `taken ${INBOX_MAX_TAKES} times without an answer`);
    return claimed
      .filter((n) => n.attempts <= INBOX_MAX_TAKES)
      .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1))
      .map(toNotice);
  }

  async ack(acks: readonly IncomingAck[]): Promise<void> {
    const done = new Map<string, string[]>();
    const failed: { id: string; token: string; reason: string }[] = [];
    for (const a of acks) {
      const [id, token] = a.handle.split(HANDLE_SEPARATOR);
      if (!id || !token) continue;
      if (a.failureReason === undefined) done.set(token, [...(done.get(token) ?? []), id]);
      else failed.push({ id, token, reason: a.failureReason });
    }
    const at = this.clock.now().toISOString();
    for (const [token, ids] of done) {
      await this.store.db
        .updateTable('bind_inbox')
        .set({ status: 'done', lock_token: null, locked_until: null, updated_at: at })
        .where('lock_token', '=', token)
        .where('id', 'in', ids)
        .execute();
    }
    for (const f of failed) await this.fail([f.id], f.token, f.reason);
  }

  /** Forgets answered rows older than the reconciliation can look back. */
  async prune(): Promise<void> {
    const before = new Date(this.clock.now().getTime() - INBOX_KEEP_DONE_MS).toISOString();
    await this.store.db.deleteFrom('bind_inbox').where('status', '=', 'done').where('updated_at', '<', before).execute();
  }

  private async fail(ids: string[], token: string, reason: string): Promise<void> {
    await this.store.db
      .updateTable('bind_inbox')
      .set({ status: 'failed', failure_reason: reason.slice(0, 500), lock_token: null, locked_until: null, updated_at: this.clock.now().toISOString() })
      .where('lock_token', '=', token)
      .where('id', 'in', ids)
      .execute();
  }
}

const toNotice = (n: BindInboxTable): IncomingNotice => ({
  handle: `${n.id}${HANDLE_SEPARATOR}${n.lock_token}`,
  cvu: n.cvu,
  leg: JSON.parse(n.leg) as TransferLeg,
});
