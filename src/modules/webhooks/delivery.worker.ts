import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { AppContext } from '../../context.js';
import { inRowsOf } from '../../db/database.js';
import { withLeaseRenewal } from '../../shared/jobs.js';
import { signatureHeaders } from './signature.js';

/**
 * D29: how long a node holds a claimed delivery without renewing it. Renewed every third of it while the node
 * works the batch, so a slow receiver (up to WEBHOOK_TIMEOUT_MS) keeps its delivery on the node sending to it,
 * while a dead node's deliveries are free again within this. Independent of the timeout on purpose.
 */
export const DELIVERY_LEASE_MS = 15_000;
/** Deliveries claimed per pass; the job runs the next pass at once while passes come back full. */
export const DELIVERY_BATCH = 256;
/**
 * Requests in flight per node. Delivery shares the one event loop with the requests, and its share follows how
 * much of it is in flight: at 32 (batches of 100) a saturating payout load left it ~1/3 behind, its lag growing
 * by seconds; at 64 it keeps pace (docs/performance.md), and it stays few enough to spare sockets.
 */
export const PARALLEL_SENDS = 64;

/** A claimed delivery with what its attempt needs, read in the same query (null: the event or webhook is gone). */
interface Claimed {
  id: string;
  user_id: string;
  attempt_count: number;
  event_id: string | null;
  event_type: string | null;
  event_created_at: string | null;
  event_data: string | null;
  url: string | null;
  secret_enc: string | null;
  active: number | null;
}

/** What an attempt will do: send, or record an outcome without sending (`final`: no retry can help). */
type Plan =
  | { kind: 'send'; url: string; secret: string; body: string; eventId: string; eventType: string }
  | { kind: 'skip'; error: string; final: boolean };

/**
 * How long a pass waits for its batch. A receiver that never answers holds each send for the whole timeout
 * (30 s); a pass that waited for those before claiming again held up every other owner's deliveries as long.
 * Past this wait the batch goes on in the background and the next pass starts.
 */
export const PASS_WAIT_MS = 2_000;
/** Batches left working in the background per node, each with up to `PARALLEL_SENDS` sends: bounds the sockets. */
export const MAX_BATCHES_BEHIND = 4;

/**
 * The delivery worker's passes on one node. Each pass claims up to `limit` due deliveries and works them
 * `PARALLEL_SENDS` at a time, waiting at most `PASS_WAIT_MS`. A batch still working then is left "behind": it
 * finishes on its own (its lease still renewed), and until it does, later passes skip the owners whose sends it
 * still holds, so one silent receiver slows only its own owner. `drain()` waits for those batches (shutdown).
 */
export class DeliveryPasses {
  private readonly behind = new Set<{ done: Promise<void>; unfinished: Map<string, string> }>();
  /** Set by `stopSending()`: batches start no more sends. */
  private closing = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly leaseMs: number,
    /** A batch left behind has finished: its owners' deliveries may be claimed again. */
    private readonly onBehindDone: () => void,
  ) {}

  /** Returns how many it claimed, so `batchPass` runs another pass while they come back full. */
  async pass(limit = DELIVERY_BATCH): Promise<number> {
    if (this.behind.size >= MAX_BATCHES_BEHIND) return 0;
    const skipUsers = new Set<string>();
    for (const b of this.behind) for (const userId of b.unfinished.values()) skipUsers.add(userId);
    const token = randomUUID();
    const claimedAt = performance.now();
    const claimed = await claim(this.ctx, { token, leaseMs: this.leaseMs, limit, skipUsers: [...skipUsers] });
    if (claimed.length === 0) return 0;
    const unfinished = new Map(claimed.map((d) => [d.id, d.user_id]));
    const done = workClaimed(this.ctx, claimed, token, this.leaseMs, claimedAt, (d) => unfinished.delete(d.id), () => this.closing).catch((err: unknown) => {
      // Unrecorded outcomes are retried once their lease runs out; a batch left behind must not reject unheard.
      this.ctx.log.error({ err }, 'webhook delivery batch failed');
    });
    let timer: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([
      done.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), PASS_WAIT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    if (!inTime) {
      const batch = { done, unfinished };
      this.behind.add(batch);
      void done.finally(() => {
        this.behind.delete(batch);
        this.onBehindDone();
      });
    }
    return claimed.length;
  }

  /**
   * At shutdown, before the jobs stop: the sends in flight finish (at most one timeout), and no batch starts
   * another. Working a batch of deliveries to a silent receiver to its end took a timeout per round of sends,
   * minutes, longer than a deploy waits; the deliveries not started keep their lease and are claimed again once it
   * runs out, here or on another node.
   */
  stopSending(): void {
    this.closing = true;
  }

  async drain(): Promise<void> {
    await Promise.all([...this.behind].map((b) => b.done));
  }
}

/** Claims and attempts one delivery now (the test endpoint), if it is due and free. */
export async function deliverNow(ctx: AppContext, deliveryId: string, leaseMs = DELIVERY_LEASE_MS): Promise<void> {
  const token = randomUUID();
  const claimedAt = performance.now();
  const claimed = await claim(ctx, { token, leaseMs, limit: 1, onlyId: deliveryId, skipUsers: [] });
  if (claimed.length > 0) await workClaimed(ctx, claimed, token, leaseMs, claimedAt);
}

/**
 * One conditional update claims the batch: the due rows come from the (status, next_attempt_at) index, and on
 * PostgreSQL `FOR UPDATE SKIP LOCKED` keeps nodes off each other's rows; the outer conditions re-check under the
 * lock, so a row is only ever taken whose lease is free. One joined read then fetches event and webhook.
 */
async function claim(
  ctx: AppContext,
  o: { token: string; leaseMs: number; limit: number; onlyId?: string; skipUsers: string[] },
): Promise<Claimed[]> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const leaseUntil = new Date(now.getTime() + o.leaseMs).toISOString();
  const db = ctx.store.db;
  let due = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', nowIso)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', nowIso)]))
    .orderBy('next_attempt_at')
    .limit(o.limit);
  if (o.onlyId) due = due.where('id', '=', o.onlyId);
  if (o.skipUsers.length > 0) due = due.where('user_id', 'not in', o.skipUsers);
  if (ctx.store.dialect === 'postgres') due = due.forUpdate().skipLocked();
  const res = await db
    .updateTable('webhook_deliveries')
    .set({ lock_token: o.token, locked_until: leaseUntil })
    .where(inRowsOf(ctx.store, 'id', due))
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', nowIso)]))
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) return [];
  return db
    .selectFrom('webhook_deliveries as d')
    .leftJoin('events as e', 'e.id', 'd.event_id')
    .leftJoin('webhooks as w', 'w.user_id', 'd.user_id')
    .select([
      'd.id',
      'd.user_id',
      'd.attempt_count',
      'e.id as event_id',
      'e.type as event_type',
      'e.created_at as event_created_at',
      'e.data as event_data',
      'w.url',
      'w.secret_enc',
      'w.active',
    ])
    .where('d.lock_token', '=', o.token)
    .orderBy('d.next_attempt_at')
    .execute();
}

/**
 * Works a claimed batch with bounded parallelism while renewing its lease every third of it (D29). Every row of
 * the batch not yet finished is renewed, the ones in flight and the ones waiting for a slot alike, and only while
 * it still carries this claim's token. An item is not sent once the lease can no longer be vouched for (renewals
 * failing): it is left to expire and be taken again, rather than risk a second node sending it too.
 */
async function workClaimed(
  ctx: AppContext,
  claimed: Claimed[],
  token: string,
  leaseMs: number,
  claimedAt: number,
  onItemDone: (d: Claimed) => void = () => {},
  /** True once the node is shutting down: no further item is started. */
  stopping: () => boolean = () => false,
): Promise<void> {
  let leaseKnownUntil = claimedAt + leaseMs;
  const renew = async (): Promise<boolean> => {
    const started = performance.now();
    const res = await ctx.store.db
      .updateTable('webhook_deliveries')
      .set({ locked_until: new Date(ctx.clock.now().getTime() + leaseMs).toISOString() })
      .where('lock_token', '=', token)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    const held = Number(res.numUpdatedRows) > 0;
    if (held) leaseKnownUntil = started + leaseMs;
    return held;
  };
  // A send that starts now is covered by the next renewal, due within a third of the lease.
  const maySend = () => performance.now() < leaseKnownUntil - leaseMs / 3;

  // A free slot takes the first waiting delivery of the owner with the fewest sends in flight. In claim order, an
  // owner whose silent receiver had a backlog in the claim took every slot for the whole timeout, and the other
  // owners' deliveries in the claim waited behind it; one owner alone still gets every slot.
  const waiting = [...claimed];
  const inFlight = new Map<string, number>();
  const takeNext = (): Claimed | undefined => {
    let best = -1;
    let fewest = Infinity;
    for (let i = 0; i < waiting.length && fewest > 0; i++) {
      const n = inFlight.get(waiting[i]!.user_id) ?? 0;
      if (n < fewest) [best, fewest] = [i, n];
    }
    if (best < 0) return undefined;
    const d = waiting.splice(best, 1)[0]!;
    inFlight.set(d.user_id, fewest + 1);
    return d;
  };
  const slot = async () => {
    for (let d = stopping() ? undefined : takeNext(); d; d = stopping() ? undefined : takeNext()) {
      try {
        // An item that starts once its claim was left behind may have waited out the timeout of the sends before
        // it; meanwhile the owner may have replaced or deleted the webhook, so it reads the webhook again rather
        // than go to the url (and secret) the owner just removed. Items started within the wait read it at claim.
        if (performance.now() - claimedAt > PASS_WAIT_MS) await rereadWebhook(ctx, d);
        await attempt(ctx, d, token, maySend);
      } catch (err) {
        // The store failed to record the outcome: the lease runs out and the delivery is attempted again.
        ctx.log.error({ err, deliveryId: d.id }, 'webhook delivery attempt could not be recorded');
      }
      inFlight.set(d.user_id, inFlight.get(d.user_id)! - 1);
      onItemDone(d);
    }
  };
  await withLeaseRenewal(leaseMs / 3, renew, () =>
    Promise.all(Array.from({ length: Math.min(PARALLEL_SENDS, claimed.length) }, slot)),
  );
}

/** The owner's webhook as it is now, in place of what the claim read. */
async function rereadWebhook(ctx: AppContext, d: Claimed): Promise<void> {
  const w = await ctx.store.db.selectFrom('webhooks').select(['url', 'secret_enc', 'active']).where('user_id', '=', d.user_id).executeTakeFirst();
  d.url = w?.url ?? null;
  d.secret_enc = w?.secret_enc ?? null;
  d.active = w?.active ?? null;
}

/**
 * Decides what an attempt does. A delivery that can never succeed is a poison item (D29) and is failed at once
 * with its reason: the event is gone, its stored payload is not JSON, or the secret does not decrypt (another
 * SECRETS_KEY); retrying those would only burn the schedule. A missing or paused webhook may come back, so it
 * counts as a failed attempt and follows the schedule.
 */
function plan(ctx: AppContext, d: Claimed): Plan {
  if (d.event_id === null || d.event_type === null || d.event_created_at === null || d.event_data === null) {
    return { kind: 'skip', error: 'event no longer exists', final: true };
  }
  if (d.url === null || d.secret_enc === null || d.active !== 1) return { kind: 'skip', error: 'no active webhook', final: false };
  let data: unknown;
  try {
    data = JSON.parse(d.event_data);
  } catch {
    return { kind: 'skip', error: 'stored event payload is not valid JSON', final: true };
  }
  let secret: string;
  try {
    secret = ctx.secretBox.open(d.secret_enc);
  } catch {
    return { kind: 'skip', error: 'webhook secret cannot be decrypted with this server key; set the webhook again', final: true };
  }
  // The body is rebuilt from the stored event, byte for byte the same on every attempt (D24 payload).
  const body = JSON.stringify({ id: d.event_id, type: d.event_type, created_at: d.event_created_at, data });
  return { kind: 'send', url: d.url, secret, body, eventId: d.event_id, eventType: d.event_type };
}

async function attempt(ctx: AppContext, d: Claimed, token: string, maySend: () => boolean): Promise<void> {
  const { retryDelaysMs, timeoutMs } = ctx.config.webhook;
  const p = plan(ctx, d);
  if (p.kind === 'send' && !maySend()) {
    ctx.log.warn({ deliveryId: d.id }, 'webhook delivery lease could not be renewed; left for the next claim');
    return;
  }

  const now = ctx.clock.now();
  let status: number | null = null;
  let error: string | null = null;
  let final = false;
  if (p.kind === 'skip') ({ error, final } = p);
  else {
    const headers = signatureHeaders(p.secret, p.body, { eventId: p.eventId, eventType: p.eventType, deliveryId: d.id, now });
    try {
      const result = await ctx.webhookSender.send({ url: p.url, headers, body: p.body, timeoutMs });
      if (result.kind === 'response') status = result.status;
      else error = result.message;
    } catch (err) {
      error = err instanceof Error ? err.message : 'send failed';
    }
  }
  const attempts = d.attempt_count + 1;
  const ok = status !== null && status >= 200 && status < 300;
  const done = ok || final || attempts >= retryDelaysMs.length + 1;
  const after = ctx.clock.now();
  const res = await ctx.store.db
    .updateTable('webhook_deliveries')
    .set({
      status: ok ? 'delivered' : done ? 'failed' : 'pending',
      attempt_count: attempts,
      last_attempt_at: now.toISOString(),
      last_response_status: status,
      last_error: ok ? null : (error ?? `receiver answered ${status}`),
      next_attempt_at: done ? null : new Date(after.getTime() + retryDelaysMs[attempts - 1]!).toISOString(),
      lock_token: null,
      locked_until: null,
      updated_at: after.toISOString(),
    })
    .where('id', '=', d.id)
    .where('lock_token', '=', token)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) {
    ctx.log.warn({ deliveryId: d.id }, 'webhook delivery lease lost during the attempt; its outcome is left to the new holder');
  }
}

/** When the oldest pending delivery falls or fell due (for metrics); null when none is pending. */
export async function oldestDeliveryDue(ctx: AppContext): Promise<string | null> {
  const row = await ctx.store.db
    .selectFrom('webhook_deliveries')
    .select('next_attempt_at')
    .where('status', '=', 'pending')
    .where('next_attempt_at', 'is not', null)
    .orderBy('next_attempt_at')
    .limit(1)
    .executeTakeFirst();
  return row?.next_attempt_at ?? null;
}

/** Deliveries due now and not yet sent (for metrics). */
export async function deliveryBacklog(ctx: AppContext): Promise<number> {
  const row = await ctx.store.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', ctx.clock.now().toISOString())
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
