import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { compiled } from '../../db/compiled.js';
import { forUpdate, waitLongerForLocks, type Executor, type Tx } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { writeAudit } from '../audit/audit.service.js';
import type { Principal } from '../auth/auth.service.js';
import { AppError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { controlsView, DEFAULT_CONTROLS, parseControls, type KeyControls, type KeyControlsInput, type Scope } from './key-controls.js';
import { lockWalletForPayout } from '../wallet/wallet.locks.js';
import type { ApiKeysTable } from './keys.tables.js';

/** D11: `svc_` + 24 random bytes in base64url (32 characters). */
const KEY_PATTERN = /^svc_[A-Za-z0-9_-]{32}$/;
/** How stale `last_used_at` may get before a use refreshes it: one write a minute per key at most. */
const LAST_USED_RESOLUTION_MS = 60_000;

export type ApiKeyView = {
  id: string;
  name: string;
  /** D44: `key` for a secret, `oauth` for an app connected by OAuth. */
  kind: 'key' | 'oauth';
  created_at: string;
  last_used_at: string | null;
} & ReturnType<typeof controlsView>;
export interface NewApiKey extends ApiKeyView {
  key: string;
}
/** A live key as authentication sees it: who it is and what it may do. */
export interface ActiveKey {
  id: string;
  user_id: string;
  name: string;
  controls: KeyControls;
}

export const looksLikeApiKey = (s: string): boolean => s.startsWith('svc_');
const hashKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

export const controlsOf = (r: Pick<ApiKeysTable, 'scopes' | 'allowlist' | 'per_tx_limit' | 'daily_limit' | 'monthly_limit' | 'expires_at'>): KeyControls => ({
  scopes: JSON.parse(r.scopes) as Scope[],
  allowlist: JSON.parse(r.allowlist) as string[],
  perTxLimit: Number(r.per_tx_limit),
  dailyLimit: Number(r.daily_limit),
  monthlyLimit: Number(r.monthly_limit),
  expiresAt: r.expires_at,
});

const controlColumns = (c: KeyControls) => ({
  scopes: JSON.stringify(c.scopes),
  allowlist: JSON.stringify(c.allowlist),
  per_tx_limit: c.perTxLimit,
  daily_limit: c.dailyLimit,
  monthly_limit: c.monthlyLimit,
  expires_at: c.expiresAt,
});

const toView = (r: ApiKeysTable): ApiKeyView => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  created_at: r.created_at,
  last_used_at: r.last_used_at,
  ...controlsView(controlsOf(r)),
});

export async function createApiKey(
  ctx: { clock: Clock },
  db: Executor,
  userId: string,
  name: string,
  controls: KeyControlsInput = {},
  oauth?: { clientId: string },
): Promise<NewApiKey> {
  const key = `svc_${randomBytes(24).toString('base64url')}`;
  const now = ctx.clock.now();
  const row: ApiKeysTable = {
    id: newId('key', now),
    user_id: userId,
    name,
    key_hash: hashKey(key),
    key_prefix: key.slice(0, 8),
    created_at: now.toISOString(),
    deleted_at: null,
    last_used_at: null,
    ...controlColumns(parseControls(controls, DEFAULT_CONTROLS, now)),
    // D44: an app connected by OAuth acts through its grant's tokens; the secret above is thrown away unseen.
    kind: oauth ? 'oauth' : 'key',
    oauth_client_id: oauth?.clientId ?? null,
    oauth_grant_id: null,
  };
  await db.insertInto('api_keys').values(row).execute();
  return { ...toView(row), key };
}

/** The owner's own new key (POST /v1/api-keys): the key and its activity entry commit together. */
export async function createOwnerKey(ctx: AppContext, who: Principal, name: string, controls: KeyControlsInput): Promise<NewApiKey> {
  return ctx.store.transaction(async (tx) => {
    const key = await createApiKey(ctx, tx, who.userId, name, controls);
    await writeAudit(tx, ctx.clock, who, { action: 'api_key.created', subjectId: key.id });
    return key;
  });
}

export async function listApiKeys(ctx: AppContext, userId: string): Promise<ApiKeyView[]> {
  const rows = await ctx.store.db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toView);
}

/**
 * D12, D31, D36: revoking or editing a key takes the per-user lock a payout's decision holds (waiting as long as the
 * emergency stop may), so once it has answered, every decision still to come reads the key as it left it, and one
 * under way when it was asked has already committed.
 */
function underPayoutLock<T>(ctx: AppContext, userId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return ctx.store.transaction(async (tx) => {
    await waitLongerForLocks(ctx.store, tx);
    await lockWalletForPayout(ctx.store, tx, userId);
    return fn(tx);
  });
}

/**
 * D31: the owner changes a key's controls; fields not given keep their value. `recordAs`: the owner's own call, whose
 * activity entry commits with the change (an OAuth consent that updates its agent is recorded as the consent).
 */
export async function updateApiKey(...args: Parameters<typeof updateApiKeyFrom>): Promise<ApiKeyView> {
  return (await updateApiKeyFrom(...args)).view;
}

/** The columns of a key that an owner's edit or an OAuth consent sets. */
const SETTABLE = ['name', 'scopes', 'allowlist', 'per_tx_limit', 'daily_limit', 'monthly_limit', 'expires_at'] as const;
type Settable = Pick<ApiKeysTable, (typeof SETTABLE)[number]>;
/** A change of those columns, as updateApiKeyFrom made it. */
export type KeyChange = { before: Settable; after: Settable };
const settableOf = (r: ApiKeysTable): Settable => Object.fromEntries(SETTABLE.map((c) => [c, r[c]])) as Settable;

/**
 * updateApiKey, answering also what the settable columns were just before and are now, read under the same lock:
 * what an undo puts back (putBackApiKey).
 */
export async function updateApiKeyFrom(
  ctx: AppContext,
  userId: string,
  keyId: string,
  input: KeyControlsInput & { name?: string },
  recordAs?: Principal,
  action = 'api_key.updated',
): Promise<KeyChange & { view: ApiKeyView }> {
  return underPayoutLock(ctx, userId, async (tx) => {
    // The key row locked too: a user without a wallet has no per-user lock row (see keyNowIn), and what is read here
    // is written back whole and answered as `before`.
    const row = await liveKeyForUpdate(ctx, tx, userId, keyId);
    if (!row) throw new AppError('NOT_FOUND', 'API key not found');
    const controls = parseControls(input, controlsOf(row), ctx.clock.now());
    const updated = await tx
      .updateTable('api_keys')
      .set({ ...controlColumns(controls), ...(input.name !== undefined ? { name: input.name.trim() } : {}) })
      .where('id', '=', keyId)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw new AppError('NOT_FOUND', 'API key not found');
    if (recordAs) await writeAudit(tx, ctx.clock, recordAs, { action, subjectId: keyId });
    return { view: toView(updated), before: settableOf(row), after: settableOf(updated) };
  });
}

const liveKeyForUpdate = (ctx: AppContext, tx: Tx, userId: string, keyId: string) =>
  forUpdate(ctx.store, tx.selectFrom('api_keys').selectAll().where('id', '=', keyId).where('user_id', '=', userId).where('deleted_at', 'is', null)).executeTakeFirst();

/**
 * Puts a key back as it was `before` a change (to `after`) that then failed (an OAuth consent, D44). Only a column
 * that still holds what that change wrote goes back: one the owner changed since keeps the owner's value, since an
 * edit that has answered holds (D31). Recorded as an update when something was put back; a deleted key stays deleted.
 */
export async function putBackApiKey(ctx: AppContext, userId: string, keyId: string, change: KeyChange, recordAs: Principal): Promise<void> {
  await underPayoutLock(ctx, userId, async (tx) => {
    const row = await liveKeyForUpdate(ctx, tx, userId, keyId);
    if (!row) return;
    const back = SETTABLE.filter((c) => row[c] === change.after[c] && row[c] !== change.before[c]);
    if (back.length === 0) return;
    await tx
      .updateTable('api_keys')
      .set(Object.fromEntries(back.map((c) => [c, change.before[c]])))
      .where('id', '=', keyId)
      .execute();
    await writeAudit(tx, ctx.clock, recordAs, { action: 'api_key.updated', subjectId: keyId });
  });
}

/**
 * Another user's key and an already deleted key are both simply "not found". Answers the OAuth grant of an app
 * connected by OAuth, whose tokens the caller revokes (D44). `recordAs`: as for updateApiKey (an OAuth consent that
 * fails removes the agent it made with an entry too, as it was made with one).
 */
export async function deleteApiKey(ctx: AppContext, userId: string, keyId: string, recordAs?: Principal): Promise<{ oauthGrantId: string | null }> {
  const row = await underPayoutLock(ctx, userId, async (tx) => {
    const deleted = await tx
      .updateTable('api_keys')
      .set({ deleted_at: ctx.clock.now().toISOString() })
      .where('id', '=', keyId)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .returning(['oauth_grant_id'])
      .executeTakeFirst();
    if (deleted && recordAs) await writeAudit(tx, ctx.clock, recordAs, { action: 'api_key.revoked', subjectId: keyId });
    return deleted;
  });
  if (!row) throw new AppError('NOT_FOUND', 'API key not found');
  return { oauthGrantId: row.oauth_grant_id };
}

/**
 * D12, D31, D44: an agent's key as it is now, read in the caller's transaction after the per-user lock: its controls,
 * `'expired'`, or `'gone'` once the owner deleted it (or revoked its OAuth app). So a revoke or edit that has answered
 * holds for a request already past its authentication. On PostgreSQL the key row is locked too: a user without a
 * wallet has no per-user lock row, and a revoke or edit writes this row.
 */
export async function keyNowIn(ctx: AppContext, tx: Tx, userId: string, keyId: string): Promise<KeyControls | 'expired' | 'gone'> {
  const row = await forUpdate(
    ctx.store,
    tx
      .selectFrom('api_keys')
      .select(['scopes', 'allowlist', 'per_tx_limit', 'daily_limit', 'monthly_limit', 'expires_at'])
      .where('id', '=', keyId)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null),
  ).executeTakeFirst();
  if (!row) return 'gone';
  const controls = controlsOf(row);
  return controls.expiresAt !== null && controls.expiresAt <= ctx.clock.now().toISOString() ? 'expired' : controls;
}

/**
 * D44: the owner's live (not deleted, not expired) agent connected by OAuth as this app, if any: an app that asks
 * again (more scopes, step-up) updates that agent rather than adding a second one beside it.
 */
export async function findOAuthAgentOfClient(ctx: AppContext, userId: string, clientId: string): Promise<{ agent: ApiKeyView; grantId: string | null } | null> {
  const now = ctx.clock.now().toISOString();
  const row = await ctx.store.db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', 'oauth')
    .where('oauth_client_id', '=', clientId)
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row ? { agent: toView(row), grantId: row.oauth_grant_id } : null;
}

/** D44: the grant whose tokens act as this app's key, recorded once the owner consented. */
export async function setOAuthGrant(ctx: AppContext, keyId: string, grantId: string): Promise<void> {
  await ctx.store.db.updateTable('api_keys').set({ oauth_grant_id: grantId }).where('id', '=', keyId).where('kind', '=', 'oauth').execute();
}

const ACTIVE_COLUMNS = ['id', 'user_id', 'name', 'scopes', 'allowlist', 'per_tx_limit', 'daily_limit', 'monthly_limit', 'expires_at', 'last_used_at'] as const;

/**
 * What a key lookup finds: the live key, `'expired'` for a key past its `expires_at` (D31), so the refusal can say
 * so rather than "deleted", or null for a deleted, unknown or malformed key.
 */
export type KeyLookup = ActiveKey | 'expired' | null;

/** A deleted key and an expired one (D31) authenticate nothing; a live one records that it was used. */
async function active(ctx: AppContext, row: Pick<ApiKeysTable, (typeof ACTIVE_COLUMNS)[number]> | undefined): Promise<KeyLookup> {
  if (!row) return null;
  const now = ctx.clock.now();
  if (row.expires_at !== null && row.expires_at <= now.toISOString()) return 'expired';
  if (row.last_used_at === null || Date.parse(row.last_used_at) < now.getTime() - LAST_USED_RESOLUTION_MS) {
    await ctx.store.db.updateTable('api_keys').set({ last_used_at: now.toISOString() }).where('id', '=', row.id).execute();
  }
  return { id: row.id, user_id: row.user_id, name: row.name, controls: controlsOf(row) };
}

/** Looks a raw secret up by its hash; deleted and malformed keys are unknown, expired ones `'expired'`. */
export async function findActiveKey(ctx: AppContext, secret: string): Promise<KeyLookup> {
  if (!KEY_PATTERN.test(secret)) return null;
  const row = await ctx.store.db
    .selectFrom('api_keys')
    .select(ACTIVE_COLUMNS)
    .where('key_hash', '=', hashKey(secret))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return active(ctx, row);
}

/** Every authenticated agent request runs this one (compiled once). */
const activeKeyById = compiled<{ id: string; user_id: string }, Pick<ApiKeysTable, (typeof ACTIVE_COLUMNS)[number]>>((db, a) =>
  db.selectFrom('api_keys').select(ACTIVE_COLUMNS).where('id', '=', a.id).where('user_id', '=', a.user_id).where('deleted_at', 'is', null),
);

export async function findActiveKeyById(ctx: AppContext, userId: string, keyId: string): Promise<KeyLookup> {
  return active(ctx, await activeKeyById.first(ctx.store.db, { id: keyId, user_id: userId }));
}

/** D44: an OAuth access token names its agent by key id alone (its grant's account); only `oauth` keys qualify. */
export async function findActiveOAuthKey(ctx: AppContext, keyId: string): Promise<KeyLookup> {
  const row = await ctx.store.db
    .selectFrom('api_keys')
    .select(ACTIVE_COLUMNS)
    .where('id', '=', keyId)
    .where('kind', '=', 'oauth')
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return active(ctx, row);
}
