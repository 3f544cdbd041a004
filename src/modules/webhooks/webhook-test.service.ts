import type { AppContext } from '../../context.js';
import { AppError } from '../../shared/errors.js';
import { recordEvent } from '../events/events.service.js';
import { deliverNow } from './delivery.worker.js';
import { toDeliveryView, type DeliveryView } from './webhooks.service.js';

/** `POST /v1/webhook/test`: records a `webhook.test` event, attempts its delivery now and reports the attempt. */
export async function sendTestEvent(ctx: AppContext, userId: string): Promise<DeliveryView> {
  const hook = await ctx.store.db.selectFrom('webhooks').select('id').where('user_id', '=', userId).executeTakeFirst();
  if (!hook) throw new AppError('NOT_FOUND', 'No webhook is set; PUT /v1/webhook first');
  // Without its after-commit callback, which would wake the worker to race this request for the delivery it attempts
  // itself just below.
  const event = await ctx.store.transaction(
    (tx) => recordEvent(tx, ctx.clock, { userId, type: 'webhook.test', data: { message: 'This is a test event from the ARS wallet service.' } }),
    { afterCommit: false },
  );
  const d = await ctx.store.db.selectFrom('webhook_deliveries').select('id').where('user_id', '=', userId).where('event_id', '=', event!.id).executeTakeFirst();
  if (!d) throw new AppError('NOT_FOUND', 'The webhook is inactive; set active: true to receive events');
  await deliverNow(ctx, d.id);
  return toDeliveryView(await ctx.store.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow());
}
