import { compiled } from '../../db/compiled.js';
import { afterCommit, type Executor } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { newId } from '../../shared/ids.js';
import { onEventRecorded, type RecordedEvent } from '../events/events.service.js';

/**
 * Delivery workers to wake when a delivery commits. Process-wide because the outbox subscriber runs inside
 * `recordEvent`, which sees only an executor; in production a process runs one app, and waking a worker that
 * finds nothing costs one indexed query.
 */
const wakers = new Set<() => void>();

export function wakeDeliveryWorkers(): void {
  for (const wake of wakers) wake();
}

/**
 * The outbox subscriber (D24): in the event's own transaction, a user with an active webhook gets a pending
 * delivery that commits with the event. One statement: the webhook lookup (unique index on `user_id`) and the
 * insert together.
 */
const insertDelivery = compiled<{ id: string; user_id: string; event_id: string; event_type: string; now: string }>((db, a) =>
  db
    .insertInto('webhook_deliveries')
    .columns(['id', 'user_id', 'webhook_id', 'event_id', 'event_type', 'status', 'attempt_count', 'next_attempt_at', 'created_at', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('webhooks')
        .select((s) => [
          s.val(a.id).as('id'),
          s.val(a.user_id).as('user_id'),
          s.ref('webhooks.id').as('webhook_id'),
          s.val(a.event_id).as('event_id'),
          s.val(a.event_type).as('event_type'),
          s.val('pending').as('status'),
          s.val(0).as('attempt_count'),
          s.val(a.now).as('next_attempt_at'),
          s.val(a.now).as('created_at'),
          s.val(a.now).as('updated_at'),
        ])
        .where('user_id', '=', a.user_id)
        .where('active', '=', 1),
    ),
);

export async function enqueueDelivery(db: Executor, clock: Clock, e: RecordedEvent): Promise<void> {
  const now = clock.now();
  // Woken only after the commit: a worker woken earlier would not see the row and sleep a whole poll interval.
  const { changed } = await insertDelivery.run(db, { id: newId('whd', now), user_id: e.userId, event_id: e.id, event_type: e.type, now: now.toISOString() });
  if (changed > 0) afterCommit(db, wakeDeliveryWorkers);
}

/**
 * Wires webhooks to the outbox at composition: every recorded event gets its delivery, and `wake` is called once
 * one has committed. The subscriber itself stays registered for the life of the process (it holds no state, and
 * a later app must not lose it when an earlier one closes); the returned undo removes only `wake`.
 */
export function registerWebhookOutbox(wake: () => void): () => void {
  onEventRecorded(enqueueDelivery);
  wakers.add(wake);
  return () => {
    wakers.delete(wake);
  };
}
