import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { inRowsOf, type Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../shared/clock.js';
import type { IncomingAck, IncomingNotice, TransferLeg } from './rail.port.js';

/** Long enough for a batch to be recorded; a holder that dies lets the notices come back after it. */
export const NOTICE_LEASE_MS = 60_000;
/** A notice taken this often without an answer is poison: set aside as failed rather than retried forever (D29). */
export const NOTICE_MAX_TAKES = 5;

const HANDLE_SEPARATOR = '~';

/** The tables that hold incoming notices (see each rail's tables file). */
type NoticeTable = 'rail_incoming_notices' | 'bind_inbox';
/** The columns both tables have, taken from their declarations: a column one of them drops leaves the queue's code. */
type NoticeRow = { [K in keyof Database['rail_incoming_notices'] & keyof Database['bind_inbox']]: Database['rail_incoming_notices'][K] | Database['bind_inbox'][K] };

/**
 * Incoming notices handed out with leases (docs/bank-rail.md, "Deposit detection"): claimed on PostgreSQL by one
 * UPDATE over a FOR UPDATE SKIP LOCKED subquery, so nodes sharing the database take disjoint batches, and on both
 * stores by a conditional update; answered notices are deleted (`answered: 'delete'`) or kept as `done`
 * (`'keep'`, where the row's id must keep refusing repeats); failed ones keep their reason. One queue, used by the
 * sandbox bank's notices and BIND's inbox.
 */
export class NoticeQueue {
  /** The queue is written once against the columns both tables share. */
  private readonly db: Kysely<Record<'notices', NoticeRow>>;
  private readonly onPostgres: boolean;

  constructor(
    db: Kysely<Database>,
    dialect: Dialect,
    private readonly clock: Clock,
    private readonly table: NoticeTable,
    private readonly answered: 'delete' | 'keep',
  ) {
    this.db = db as unknown as Kysely<Record<'notices', NoticeRow>>;
    this.onPostgres = dialect === 'postgres';
  }

  private get name(): 'notices' {
    return this.table as unknown as 'notices';
  }

  /** When the oldest notice not yet answered arrived (ISO 8601), or null when none waits: the detection job's lag. */
  async oldestPending(): Promise<string | null> {
    const row = await this.db.selectFrom(this.name).select('created_at').where('status', '=', 'pending').orderBy('created_at').limit(1).executeTakeFirst();
    return row?.created_at ?? null;
  }

  async take(limit: number): Promise<IncomingNotice[]> {
    // Before the claim counts a take again (their lease token is still theirs until then).
    if (this.owedGiveBacks.size > 0) await this.giveBack(this.owedGiveBacks);
    const now = this.clock.now();
    const nowIso = now.toISOString();
    const due = () =>
      this.db
        .selectFrom(this.name)
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
      .updateTable(this.name)
      .set((eb) => ({
        lock_token: token,
        locked_until: new Date(now.getTime() + NOTICE_LEASE_MS).toISOString(),
        attempts: eb('attempts', '+', 1),
        updated_at: nowIso,
      }))
      .where((eb) => (ids ? eb('id', 'in', ids) : inRowsOf({ dialect: 'postgres' }, 'id', due().forUpdate().skipLocked())))
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', nowIso)]))
      .returningAll()
      .execute();
    const poison = claimed.filter((n) => n.attempts > NOTICE_MAX_TAKES);
    if (poison.length > 0) await this.fail(poison.map((n) => n.id), token, `taken ${NOTICE_MAX_TAKES} times without an answer`);
    return claimed
      .filter((n) => n.attempts <= NOTICE_MAX_TAKES)
      .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1))
      .map((n) => ({ handle: `${n.id}${HANDLE_SEPARATOR}${n.lock_token}`, cvu: n.cvu, leg: JSON.parse(n.leg) as TransferLeg }));
  }

  async ack(acks: readonly IncomingAck[]): Promise<void> {
    const done = new Map<string, string[]>();
    const failed: { id: string; token: string; reason: string }[] = [];
    const uncounted = new Map<string, string[]>();
    for (const a of acks) {
      const [id, token] = a.handle.split(HANDLE_SEPARATOR);
      if (!id || !token) continue;
      if (a.storeUnavailable) uncounted.set(token, [...(uncounted.get(token) ?? []), id]);
      else if (a.failureReason === undefined) done.set(token, [...(done.get(token) ?? []), id]);
      else failed.push({ id, token, reason: a.failureReason });
    }
    // D42: a take that failed only because the store could not serve is not the notice's fault. It keeps its lease
    // (it comes back when that ends), but the take is given back, so an outage cannot make a good notice poison.
    // The store being down, giving it back may fail too: then it is owed, and given back before the next take.
    try {
      await this.giveBack(uncounted);
    } catch (err) {
      for (const [token, ids] of uncounted) this.owedGiveBacks.set(token, ids);
      throw err;
    }
    const at = this.clock.now().toISOString();
    for (const [token, ids] of done) {
      if (this.answered === 'delete') {
        await this.db.deleteFrom(this.name).where('lock_token', '=', token).where('id', 'in', ids).execute();
      } else {
        await this.db
          .updateTable(this.name)
          .set({ status: 'done', lock_token: null, locked_until: null, updated_at: at })
          .where('lock_token', '=', token)
          .where('id', 'in', ids)
          .execute();
      }
    }
    for (const f of failed) await this.fail([f.id], f.token, f.reason);
  }

  /** Takes given back that could not be (see `ack`), by lease token: this node's, kept until the store takes them. */
  private readonly owedGiveBacks = new Map<string, string[]>();

  private async giveBack(takes: Map<string, string[]>): Promise<void> {
    for (const [token, ids] of takes) {
      await this.db
        .updateTable(this.name)
        .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
        .where('lock_token', '=', token)
        .where('id', 'in', ids)
        .where('attempts', '>', 0)
        .execute();
      takes.delete(token);
    }
  }

  private async fail(ids: string[], token: string, reason: string): Promise<void> {
    await this.db
      .updateTable(this.name)
      .set({ status: 'failed', failure_reason: reason.slice(0, 500), lock_token: null, locked_until: null, updated_at: this.clock.now().toISOString() })
      .where('lock_token', '=', token)
      .where('id', 'in', ids)
      .execute();
  }
}
