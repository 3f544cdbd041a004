import { compiled } from '../../db/compiled.js';
import type { Executor } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { newId } from '../../shared/ids.js';

export const EVENT_TYPES = [
  'payout.requested',
  'payout.submitted',
  'payout.confirmed',
  'payout.approved',
  'payout.rejected',
  'payout.expired',
  'payout.failed',
  'deposit.detected',
  'payouts.paused',
  'payouts.resumed',
  'crypto.offramp.completed',
  'crypto.offramp.failed',
  'crypto.deposit.completed',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EventEnvelope<T = unknown> {
  id: string;
  type: EventType;
  created_at: string;
  data: T;
}

export interface RecordedEvent {
  id: string;
  userId: string;
  type: EventType;
  data: unknown;
}

/**
 * Work that must commit or roll back with every recorded event (the webhooks module writes its pending delivery
 * here, so a committed event is never missed). It runs on the event's own executor, inside its transaction.
 */
export type EventSubscriber = (db: Executor, clock: Clock, event: RecordedEvent) => Promise<void>;

// Module-level so that the many callers keep calling `recordEvent(db, clock, …)`; the composition root fills it,
// which keeps this module free of any import of its subscribers (no events↔webhooks cycle).
const subscribers = new Set<EventSubscriber>();

/** Registers a subscriber; registering the same function again is a no-op. Returns the undo. */
export function onEventRecorded(fn: EventSubscriber): () => void {
  subscribers.add(fn);
  return () => {
    subscribers.delete(fn);
  };
}

const insertEvent = compiled<{ id: string; user_id: string; type: string; data: string; created_at: string; dedupe_key: string | null }>((db, a) =>
  db
    .insertInto('events')
    .values({ id: a.id, user_id: a.user_id, type: a.type, data: a.data, created_at: a.created_at, dedupe_key: a.dedupe_key })
    .onConflict((oc) => oc.column('dedupe_key').doNothing()),
);

/**
 * Writes an event into the outbox with the caller's executor, so it commits or rolls back with the change it
 * describes. With a `dedupeKey` the event is written at most once ever; returns null when it already was.
 */
export async function recordEvent<T>(
  db: Executor,
  clock: Clock,
  e: { userId: string; type: EventType; data: T; dedupeKey?: string },
): Promise<EventEnvelope<T> | null> {
  const now = clock.now();
  const envelope: EventEnvelope<T> = { id: newId('evt', now), type: e.type, created_at: now.toISOString(), data: e.data };
  const args = {
    id: envelope.id,
    user_id: e.userId,
    type: e.type,
    data: JSON.stringify(e.data),
    created_at: envelope.created_at,
    dedupe_key: e.dedupeKey ?? null,
  };
  if ((await insertEvent.run(db, args)).changed === 0) return null;
  for (const fn of subscribers) await fn(db, clock, { id: envelope.id, userId: e.userId, type: e.type, data: e.data });
  return envelope;
}

/** For tests and diagnostics only: no request or job reads events by user, so no index serves it (migration 0017). */
export async function listEvents(db: Executor, userId: string, type?: EventType) {
  let q = db.selectFrom('events').selectAll().where('user_id', '=', userId);
  if (type) q = q.where('type', '=', type);
  const rows = await q.orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, type: r.type as EventType, created_at: r.created_at, data: JSON.parse(r.data) as unknown }));
}
