import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { AppContext } from '../../context.js';
import type { Clock } from '../../shared/clock.js';
import { afterCommit, inRowsOf } from '../../db/database.js';
import { AppError } from '../../shared/errors.js';
import { checkCursor, newId } from '../../shared/ids.js';
import { pruneInBatches } from '../../shared/jobs.js';
import { writeAudit } from '../audit/audit.service.js';
import type { Principal } from '../auth/auth.service.js';
import { checkUrlSyntax, isBlockedAddress } from './address-guard.js';
import { wakeDeliveryWorkers } from './webhooks.outbox.js';
import type { WebhookDeliveriesTable, WebhooksTable } from './webhooks.tables.js';

export const SECRET_MIN_LENGTH = 16;
export const DELIVERIES_LISTING_MAX = 50;
export const DELIVERY_RETENTION_MS = 7 * 24 * 3600 * 1000;

export interface WebhookView {
  id: string;
  url: string;
  active: boolean;
  created_at: string;
  updated_at: string;
}
export interface DeliveryView {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  created_at: string;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  last_response_status: number | null;
  last_error: string | null;
}

const toView = (w: WebhooksTable): WebhookView => ({
  id: w.id,
  url: w.url,
  active: w.active === 1,
  created_at: w.created_at,
  updated_at: w.updated_at,
});
export const toDeliveryView = (d: WebhookDeliveriesTable): DeliveryView => ({
  id: d.id,
  event_id: d.event_id,
  event_type: d.event_type,
  status: d.status,
  attempt_count: d.attempt_count,
  created_at: d.created_at,
  last_attempt_at: d.last_attempt_at,
  next_attempt_at: d.status === 'pending' ? d.next_attempt_at : null,
  last_response_status: d.last_response_status,
  last_error: d.last_error,
});

export async function getWebhook(ctx: AppContext, userId: string): Promise<WebhookView | null> {
  const w = await ctx.store.db.selectFrom('webhooks').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return w ? toView(w) : null;
}

/** Refuses targets that are, or resolve to, private or reserved addresses (D24), unless allowed by config. */
async function checkTarget(ctx: AppContext, url: URL): Promise<void> {
  if (ctx.config.webhook.allowPrivateNetworks) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true })).map((a) => a.address);
    } catch {
      throw new AppError('INVALID_URL', `url host ${host} does not resolve`);
    }
  }
  if (addresses.some(isBlockedAddress)) {
    // A developer following the README's local receiver meets this first: say which setting allows it.
    throw new AppError(
      'INVALID_URL',
      'url points to a private, loopback or reserved address; webhook targets must be reachable on the internet ' +
        '(for local development, start the service with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true)',
    );
  }
}

/** PUT /v1/webhook: one webhook per user, created or replaced. */
/** The owner's changes below write their activity entry in the same transaction as the change. */
export async function putWebhook(
  ctx: AppContext,
  who: Principal,
  input: { url?: string; secret?: string; active?: boolean },
): Promise<WebhookView> {
  const userId = who.userId;
  const checked = checkUrlSyntax(input.url);
  if (!checked.ok) throw new AppError(checked.code, checked.message);
  if (typeof input.secret !== 'string' || input.secret.length < SECRET_MIN_LENGTH) {
    throw new AppError('SECRET_TOO_SHORT', `secret must be at least ${SECRET_MIN_LENGTH} characters`);
  }
  await checkTarget(ctx, checked.url);
  const now = ctx.clock.now().toISOString();
  const values = { url: checked.url.toString(), secret_enc: ctx.secretBox.seal(input.secret), active: input.active === false ? 0 : 1, updated_at: now };
  await ctx.store.transaction(async (tx) => {
    await tx
      .insertInto('webhooks')
      .values({ id: newId('whk', ctx.clock.now()), user_id: userId, created_at: now, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
    await writeAudit(tx, ctx.clock, who, { action: 'webhook.set' });
  });
  return (await getWebhook(ctx, userId))!;
}

export async function deleteWebhook(ctx: AppContext, who: Principal): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    await tx.deleteFrom('webhooks').where('user_id', '=', who.userId).execute();
    await writeAudit(tx, ctx.clock, who, { action: 'webhook.deleted' });
  });
}

/**
 * The 50 most recent deliveries (contract), newest first, and a cursor to the older ones: after an outage longer
 * than the schedule, every failed delivery must stay reachable to be redelivered, not only the last 50. Paged by
 * id like the other lists (D20): a delivery's id carries the time it was created.
 */
export async function listDeliveries(
  ctx: AppContext,
  userId: string,
  opts: { cursor?: string } = {},
): Promise<{ deliveries: DeliveryView[]; next_cursor: string | null }> {
  checkCursor('whd', opts.cursor);
  let q = ctx.store.db.selectFrom('webhook_deliveries').selectAll().where('user_id', '=', userId);
  if (opts.cursor) q = q.where('id', '<', opts.cursor);
  const rows = await q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(DELIVERIES_LISTING_MAX + 1)
    .execute();
  const page = rows.slice(0, DELIVERIES_LISTING_MAX);
  return { deliveries: page.map(toDeliveryView), next_cursor: rows.length > DELIVERIES_LISTING_MAX ? page[page.length - 1]!.id : null };
}

/** A fresh pending delivery of an event: attempt now, with the whole retry schedule ahead. */
function newDelivery(clock: Clock, e: { id: string; userId: string; type: string }, webhookId: string): WebhookDeliveriesTable {
  const now = clock.now().toISOString();
  return {
    id: newId('whd', clock.now()),
    user_id: e.userId,
    webhook_id: webhookId,
    event_id: e.id,
    event_type: e.type,
    status: 'pending',
    attempt_count: 0,
    next_attempt_at: now,
    last_attempt_at: null,
    last_response_status: null,
    last_error: null,
    lock_token: null,
    locked_until: null,
    created_at: now,
    updated_at: now,
  };
}

/** Beyond the contract: send an event again, as a fresh delivery with its own 5 attempts. */
export async function redeliver(ctx: AppContext, who: Principal, deliveryId: string): Promise<DeliveryView> {
  const userId = who.userId;
  const d = await ctx.store.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', deliveryId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!d) throw new AppError('NOT_FOUND', 'Delivery not found');
  const hook = await ctx.store.db.selectFrom('webhooks').select(['id']).where('user_id', '=', userId).executeTakeFirst();
  if (!hook) throw new AppError('NOT_FOUND', 'No webhook is set; PUT /v1/webhook first');
  const row = newDelivery(ctx.clock, { id: d.event_id, userId, type: d.event_type }, hook.id);
  await ctx.store.transaction(async (tx) => {
    await tx.insertInto('webhook_deliveries').values(row).execute();
    await writeAudit(tx, ctx.clock, who, { action: 'webhook.redelivered', subjectId: deliveryId });
    afterCommit(tx, wakeDeliveryWorkers);
  });
  return toDeliveryView(row);
}

/** Rows deleted per statement: short statements keep locks and the write-ahead log small on a busy store. */
export const PRUNE_BATCH = 1000;

/**
 * Deletes at most `limit` deliveries past retention (contract: kept 7 days), oldest first, found through the
 * `created_at` index. On PostgreSQL rows another node is deleting are skipped rather than waited for.
 */
export async function pruneDeliveryBatch(ctx: AppContext, limit: number): Promise<number> {
  const cutoff = new Date(ctx.clock.now().getTime() - DELIVERY_RETENTION_MS).toISOString();
  let old = ctx.store.db.selectFrom('webhook_deliveries').select('id').where('created_at', '<', cutoff).orderBy('created_at').limit(limit);
  if (ctx.store.dialect === 'postgres') old = old.forUpdate().skipLocked();
  const res = await ctx.store.db.deleteFrom('webhook_deliveries').where(inRowsOf(ctx.store, 'id', old)).executeTakeFirst();
  return Number(res.numDeletedRows);
}

export const pruneDeliveries = (ctx: AppContext, batch = PRUNE_BATCH): Promise<number> =>
  pruneInBatches(batch, (limit) => pruneDeliveryBatch(ctx, limit));
