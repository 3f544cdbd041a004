import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { AppError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';

/** D11: `svc_` + 24 random bytes in base64url (32 characters). */
const KEY_PATTERN = /^svc_[A-Za-z0-9_-]{32}$/;

export interface ApiKeyView {
  id: string;
  name: string;
  created_at: string;
}
export interface NewApiKey extends ApiKeyView {
  key: string;
}
export interface ActiveKey {
  id: string;
  user_id: string;
  name: string;
}

export const looksLikeApiKey = (s: string): boolean => s.startsWith('svc_');
const hashKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

export async function createApiKey(
  ctx: Pick<AppContext, 'clock'>,
  db: Executor,
  userId: string,
  name: string,
): Promise<NewApiKey> {
  const key = `svc_${randomBytes(24).toString('base64url')}`;
  const now = ctx.clock.now();
  const row = {
    id: newId('key', now),
    user_id: userId,
    name,
    key_hash: hashKey(key),
    key_prefix: key.slice(0, 8),
    created_at: now.toISOString(),
    deleted_at: null,
  };
  await db.insertInto('api_keys').values(row).execute();
  return { id: row.id, name, key, created_at: row.created_at };
}

export async function listApiKeys(ctx: AppContext, userId: string): Promise<ApiKeyView[]> {
  return ctx.store.db
    .selectFrom('api_keys')
    .select(['id', 'name', 'created_at'])
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Another user's key and an already deleted key are both simply "not found". */
export async function deleteApiKey(ctx: AppContext, userId: string, keyId: string): Promise<void> {
  const res = await ctx.store.db
    .updateTable('api_keys')
    .set({ deleted_at: ctx.clock.now().toISOString() })
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw new AppError('NOT_FOUND', 'API key not found');
}

/** Looks a raw secret up by its hash; deleted and malformed keys are unknown. */
export async function findActiveKey(ctx: AppContext, secret: string): Promise<ActiveKey | null> {
  if (!KEY_PATTERN.test(secret)) return null;
  const row = await ctx.store.db
    .selectFrom('api_keys')
    .select(['id', 'user_id', 'name'])
    .where('key_hash', '=', hashKey(secret))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ?? null;
}

export async function findActiveKeyById(ctx: AppContext, userId: string, keyId: string): Promise<ActiveKey | null> {
  const row = await ctx.store.db
    .selectFrom('api_keys')
    .select(['id', 'user_id', 'name'])
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ?? null;
}
