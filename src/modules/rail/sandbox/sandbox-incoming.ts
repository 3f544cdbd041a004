import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Dialect, Executor } from '../../../db/database.js';
import type { Clock } from '../../../shared/clock.js';
import type { IncomingAck, IncomingNotice, TransferLeg } from '../rail.port.js';
import type { RailIncomingNoticesTable, RailTransfersTable } from './sandbox.tables.js';

/** Long enough for a batch to be recorded; a holder that dies lets the notices come back after it. */
export const NOTICE_LEASE_MS = 60_000;
/** A notice taken this often without an answer is poison: set aside as failed rather than retried forever (D29). */
export const NOTICE_MAX_TAKES = 5;

/** A completed credit leg of `t` as the receiving customer sees it (the same shape `listLegs` gives). */
export function creditLegOf(t: RailTransfersTable, leg: { id: string; created_at: string }): TransferLeg {
  return {
    id: leg.id,
    from: t.from_identifier,
    to: t.to_identifier,
    fromLegalId: t.from_legal_id,
    toLegalId: t.to_legal_id,
    fromName: t.from_name,
    toName: t.to_name,
    amountCentavos: Number(t.amount),
    currency: 'ARS',
    status: 'COMPLETED',
    creationTime: leg.created_at,
    direction: 'credit',
    isReversal: false,
  };
}

/**
 * Writes the notice of a completed credit to a customer, with the caller's transaction: the notice exists if and
 * only if the credit does (outbox).
 */
export async function writeNotice(tx: Executor, t: RailTransfersTable, leg: { id: string; created_at: string }, now: Date): Promise<void> {
  const at = now.toISOString();
  await tx
    .insertInto('rail_incoming_notices')
    .values({
      id: leg.id,
      cvu: t.to_identifier,
      leg: JSON.stringify(creditLegOf(t, leg)),
      status: 'pending',
      attempts: 0,
      lock_token: null,
      locked_until: null,
      failure_reason: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

const HANDLE_SEPARATOR = '~';

/**
 * The consuming side of the notices, shaped like the inbox a production rail keeps for its webhooks: claimed
 * with a lease (FOR UPDATE SKIP LOCKED on PostgreSQL, so nodes sharing the database take disjoint batches, and a
 * conditional update on both stores), deleted when acknowledged, kept with a reason when they fail.
 */
export class IncomingNotices {
  private readonly onPostgres: boolean;

  constructor(
    private readonly db: Kysely<Database>,
    dialect: Dialect,
    private readonly clock: Clock,
  ) {
    this.onPostgres = dialect === 'postgres';
  }

  async take(limit: number): Promise<IncomingNotice[]> {
    const now = this.clock.now();
    const nowIso = now.toISOString();
    const due = () =>
      this.db
        .selectFrom('rail_incoming_notices')
        .select('id')
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', nowIso)]))
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit);
    let ids: string[] | null = null;
    if (!this.onPostgres) {
      // SQLite: a plain indexed read first, so an idle pass writes nothing; the update below stays conditional.
      ids = (await due().execute()).map((r) => r.id);
      if (ids.length === 0) return [];
    }
    const token = randomUUID();
    const claimed = await this.db
      .updateTable('rail_incoming_notices')
      .set((eb) => ({
        lock_token: token,
        locked_until: new Date(now.getTime() + NOTICE_LEASE_MS).toISOString(),
        attempts: eb('attempts', '+', 1),
        updated_at: nowIso,
      }))
      .where('id', 'in', ids ?? due().forUpdate().skipLocked())
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', nowIso)]))
      .returningAll()
      .execute();
    const poison = claimed.filter((n) => n.attempts > NOTICE_MAX_TAKES);
    if (poison.length > 0) {
      await this.fail(
        poison.map((n) => n.id),
        token,
        `taken ${NOTICE_MAX_TAKES} times without an answer`,
      );
    }
    return claimed
      .filter((n) => n.attempts <= NOTICE_MAX_TAKES)
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
    for (const [token, ids] of done) {
      await this.db.deleteFrom('rail_incoming_notices').where('lock_token', '=', token).where('id', 'in', ids).execute();
    }
    for (const f of failed) await this.fail([f.id], f.token, f.reason);
  }

  private async fail(ids: string[], token: string, reason: string): Promise<void> {
    await this.db
      .updateTable('rail_incoming_notices')
      .set({ status: 'failed', failure_reason: reason.slice(0, 500), lock_token: null, locked_until: null, updated_at: this.clock.now().toISOString() })
      .where('lock_token', '=', token)
      .where('id', 'in', ids)
      .execute();
  }
}

const toNotice = (n: RailIncomingNoticesTable): IncomingNotice => ({
  handle: `${n.id}${HANDLE_SEPARATOR}${n.lock_token}`,
  cvu: n.cvu,
  leg: JSON.parse(n.leg) as TransferLeg,
});
