import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { signatureHeaders } from './signature.js';
import type { WebhookDeliveriesTable } from './webhooks.tables.js';

/** A claim outlives the request timeout, so a slow receiver is never attempted twice by two workers. */
const LEASE_MARGIN_MS = 30_000;
const PARALLEL_ATTEMPTS = 8;

/**
 * One pass of the delivery worker: claims due deliveries (FOR UPDATE SKIP LOCKED on PostgreSQL, then a
 * conditional lease update on both stores, so several instances never claim the same one) and attempts each.
 */
export async function deliverDue(ctx: AppContext, limit = 100): Promise<number> {
  const claimed = await claimDue(ctx, limit);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL_ATTEMPTS, claimed.length) }, async () => {
      for (let i = next++; i < claimed.length; i = next++) await attempt(ctx, claimed[i]!);
    }),
  );
  return claimed.length;
}

async function claimDue(ctx: AppContext, limit: number, onlyId?: string): Promise<WebhookDeliveriesTable[]> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const token = randomUUID();
  const lease = new Date(now.getTime() + ctx.config.webhook.timeoutMs + LEASE_MARGIN_MS).toISOString();
  await ctx.store.db.transaction().execute(async (tx) => {
    let q = tx
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', nowIso)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', nowIso)]))
      .orderBy('next_attempt_at')
      .limit(limit);
    if (onlyId) q = q.where('id', '=', onlyId);
    if (ctx.store.dialect === 'postgres') q = q.forUpdate().skipLocked();
    const ids = (await q.execute()).map((r) => r.id);
    if (ids.length === 0) return;
    await tx
      .updateTable('webhook_deliveries')
      .set({ lock_token: token, locked_until: lease })
      .where('id', 'in', ids)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', nowIso)]))
      .execute();
  });
  return ctx.store.db.selectFrom('webhook_deliveries').selectAll().where('lock_token', '=', token).execute();
}

/** Claims and attempts one delivery now (the test endpoint), if it is due and free. */
export async function deliverNow(ctx: AppContext, deliveryId: string): Promise<void> {
  for (const d of await claimDue(ctx, 1, deliveryId)) await attempt(ctx, d);
}

async function attempt(ctx: AppContext, d: WebhookDeliveriesTable): Promise<void> {
  const { retryDelaysMs, timeoutMs } = ctx.config.webhook;
  const maxAttempts = retryDelaysMs.length + 1;
  const event = await ctx.store.db.selectFrom('events').selectAll().where('id', '=', d.event_id).executeTakeFirst();
  const hook = await ctx.store.db.selectFrom('webhooks').selectAll().where('user_id', '=', d.user_id).executeTakeFirst();

  const now = ctx.clock.now();
  let status: number | null = null;
  let error: string | null = null;
  if (!event) error = 'event no longer exists';
  else if (!hook || hook.active !== 1) error = 'no active webhook';
  else {
    // The body is rebuilt from the stored event, byte for byte the same on every attempt (D24 payload).
    const body = JSON.stringify({ id: event.id, type: event.type, created_at: event.created_at, data: JSON.parse(event.data) });
    const secret = ctx.secretBox.open(hook.secret_enc);
    const headers = signatureHeaders(secret, body, { eventId: event.id, eventType: event.type, deliveryId: d.id, now });
    const result = await ctx.webhookSender.send({ url: hook.url, headers, body, timeoutMs });
    if (result.kind === 'response') status = result.status;
    else error = result.message;
  }
  const attempts = d.attempt_count + 1;
  const ok = status !== null && status >= 200 && status < 300;
  const done = ok || attempts >= maxAttempts || !event;
  const after = ctx.clock.now();
  await ctx.store.db
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
    .where('lock_token', '=', d.lock_token)
    .execute();
}
