import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';

/** Contract + D18: stored success responses live 24 hours. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** An in-flight claim that never created an attempt (the process died first) is abandoned after this. */
const ABANDONED_CLAIM_MS = 5 * 60 * 1000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export type Claim =
  | { kind: 'claimed'; keyHash: string }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'in_use' };

/** The effective key: SHA-256 of user id and supplied key, so equal keys of different users never collide. */
export const effectiveKey = (userId: string, key: string): string =>
  createHash('sha256').update(`${userId}\u0000${key}`).digest('hex');

/**
 * Claims a key for one request. A completed key within 24 h is replayed; a key still in flight is in use; an
 * expired key is treated as new. The primary key on `key_hash` makes the claim atomic across nodes.
 */
export async function claimKey(ctx: AppContext, userId: string, key: string): Promise<Claim> {
  const keyHash = effectiveKey(userId, key);
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = ctx.clock.now();
    const inserted = await ctx.store.db
      .insertInto('idempotency_keys')
      .values({
        key_hash: keyHash,
        user_id: userId,
        state: 'in_flight',
        payout_id: null,
        response_status: null,
        response_body: null,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
      })
      .onConflict((oc) => oc.column('key_hash').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { kind: 'claimed', keyHash };

    const row = await ctx.store.db.selectFrom('idempotency_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
    if (!row) continue; // released or purged meanwhile: claim again
    const expired = row.expires_at <= now.toISOString();
    const abandoned =
      row.state === 'in_flight' && row.payout_id === null && now.getTime() - Date.parse(row.created_at) > ABANDONED_CLAIM_MS;
    if (expired || abandoned) {
      await ctx.store.db
        .deleteFrom('idempotency_keys')
        .where('key_hash', '=', keyHash)
        .where('created_at', '=', row.created_at)
        .execute();
      continue;
    }
    if (row.state === 'completed') return { kind: 'replay', status: row.response_status!, body: JSON.parse(row.response_body!) };
    return { kind: 'in_use' };
  }
  return { kind: 'in_use' };
}

/** Ties the claim to the attempt it created, in the attempt's own transaction. */
export async function attachPayout(db: Executor, keyHash: string, payoutId: string): Promise<void> {
  await db.updateTable('idempotency_keys').set({ payout_id: payoutId }).where('key_hash', '=', keyHash).execute();
}

/** Stores the success response of a claim still in flight, found by its key or by the attempt it created. */
export async function completeClaim(
  db: Executor,
  by: { keyHash: string } | { payoutId: string },
  status: number,
  body: unknown,
): Promise<void> {
  let q = db
    .updateTable('idempotency_keys')
    .set({ state: 'completed', response_status: status, response_body: JSON.stringify(body) })
    .where('state', '=', 'in_flight');
  q = 'keyHash' in by ? q.where('key_hash', '=', by.keyHash) : q.where('payout_id', '=', by.payoutId);
  await q.execute();
}

export async function storedResponse(db: Executor, keyHash: string): Promise<{ status: number; body: unknown } | null> {
  const row = await db.selectFrom('idempotency_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  if (!row || row.state !== 'completed') return null;
  return { status: row.response_status!, body: JSON.parse(row.response_body!) };
}

/** Errors are not stored (D18): the key is free again. Never frees a key whose attempt exists. */
export async function releaseKey(db: Executor, keyHash: string, opts: { evenWithPayout?: boolean } = {}): Promise<void> {
  let q = db.deleteFrom('idempotency_keys').where('key_hash', '=', keyHash).where('state', '=', 'in_flight');
  if (!opts.evenWithPayout) q = q.where('payout_id', 'is', null);
  await q.execute();
}

export async function purgeExpiredKeys(ctx: AppContext): Promise<number> {
  const res = await ctx.store.db
    .deleteFrom('idempotency_keys')
    .where('expires_at', '<=', ctx.clock.now().toISOString())
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
