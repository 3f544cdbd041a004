import { createHash, randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { compiled } from '../../db/compiled.js';
import type { Kysely } from 'kysely';
import { inRowsOf, type Executor, type Tx } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { pruneInBatches } from '../../shared/jobs.js';

/** Contract + D18: stored success responses live 24 hours. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const PURGE_BATCH = 1000;

/** What a key already says about a request, before any work is done (D18, D27). */
export type KeyState =
  | { kind: 'free' }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'in_use' }
  /** The same key was used for a different request (D27). */
  | { kind: 'reused' };

/** A claim this request owns: only the holder of `token` may complete or release it (D27). */
export interface ClaimRef {
  keyHash: string;
  token: string;
}

/** The effective key: SHA-256 of user id and supplied key, so equal keys of different users never collide. */
export const effectiveKey = (userId: string, key: string): string =>
  createHash('sha256').update(`${userId}\u0000${key}`).digest('hex');

/** D27: what makes two requests "the same request" for one key. */
export const requestFingerprint = (parts: readonly (string | number | null | undefined)[]): string =>
  createHash('sha256').update(JSON.stringify(parts.map((p) => p ?? null))).digest('hex');

export const newClaimToken = (): string => randomUUID();

function stateOf(
  row: { state: string; response_status: number | null; response_body: string | null; fingerprint: string | null; expires_at: string } | undefined,
  fingerprint: string,
  nowIso: string,
): KeyState {
  if (!row || row.expires_at <= nowIso) return { kind: 'free' };
  // Claims written before fingerprints existed match any request.
  if (row.fingerprint !== null && row.fingerprint !== fingerprint) return { kind: 'reused' };
  if (row.state === 'completed') return { kind: 'replay', status: row.response_status!, body: JSON.parse(row.response_body!) };
  return { kind: 'in_use' };
}

type KeyRow = { state: string; response_status: number | null; response_body: string | null; fingerprint: string | null; expires_at: string };
const keyRow = compiled<{ key_hash: string }, KeyRow>((db, a) =>
  db.selectFrom('idempotency_keys').select(['state', 'response_status', 'response_body', 'fingerprint', 'expires_at']).where('key_hash', '=', a.key_hash),
);
type ClaimRow = {
  key_hash: string;
  user_id: string;
  payout_id: string;
  claim_token: string;
  fingerprint: string;
  created_at: string;
  expires_at: string;
};
const claimValues = (db: Kysely<Database>, a: ClaimRow) =>
  db
    .insertInto('idempotency_keys')
    .values({
      key_hash: a.key_hash,
      user_id: a.user_id,
      state: 'in_flight',
      payout_id: a.payout_id,
      claim_token: a.claim_token,
      fingerprint: a.fingerprint,
      response_status: null,
      response_body: null,
      created_at: a.created_at,
      expires_at: a.expires_at,
    })
    .onConflict((oc) => oc.column('key_hash').doNothing());
const insertClaim = compiled<ClaimRow>(claimValues);
/** Completing a claim, by its owner (the request's token) or by the attempt it created (the follow-up job). */
const completeBy = (owner: 'claim_token' | 'payout_id') =>
  compiled<{ key_hash: string; owner: string; status: number; body: string }>((db, a) =>
    db
      .updateTable('idempotency_keys')
      .set({ state: 'completed', response_status: a.status, response_body: a.body })
      .where('key_hash', '=', a.key_hash)
      .where('state', '=', 'in_flight')
      .where(owner, '=', a.owner),
  );
const completeByToken = completeBy('claim_token');
const completeByPayout = completeBy('payout_id');

/** One indexed read, no write: replays and keys in use are answered before anything else is done. */
export async function keyState(ctx: AppContext, keyHash: string, fingerprint: string): Promise<KeyState> {
  return keyStateIn(ctx.store.db, keyHash, fingerprint, ctx.clock.now());
}

/**
 * The key as the caller's transaction sees it. Under the per-user lock (D16) this includes every attempt committed
 * before the lock was granted, so a duplicate that raced past `keyState` answers from the key rather than from a
 * policy that now counts the very attempt it duplicates.
 */
export async function keyStateIn(tx: Executor, keyHash: string, fingerprint: string, now: Date): Promise<KeyState> {
  return stateOf(await keyRow.first(tx, { key_hash: keyHash }), fingerprint, now.toISOString());
}

/** What a claim records: the key, its owner (the request's token), the request's fingerprint and its attempt. */
export interface ClaimInput {
  claim: ClaimRef;
  userId: string;
  fingerprint: string;
  payoutId: string;
  now: Date;
}

const claimRow = (c: ClaimInput): ClaimRow => ({
  key_hash: c.claim.keyHash,
  user_id: c.userId,
  payout_id: c.payoutId,
  claim_token: c.claim.token,
  fingerprint: c.fingerprint,
  created_at: c.now.toISOString(),
  expires_at: new Date(c.now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
});

/**
 * Claims the key inside the transaction that creates the attempt, so a claim and its attempt exist together or
 * not at all: there is no claim without an owner to abandon. The primary key on `key_hash` makes the claim
 * atomic across nodes (on PostgreSQL a concurrent insert of the same key waits for the other transaction).
 * Returns null when claimed, else what the key already says.
 */
export async function claimInTransaction(tx: Tx, c: ClaimInput): Promise<KeyState | null> {
  const values = claimRow(c);
  const nowIso = values.created_at;
  for (let attempt = 0; attempt < 2; attempt++) {
    if ((await insertClaim.run(tx, values)).changed === 1) return null;
    const row = await keyRow.first(tx, { key_hash: c.claim.keyHash });
    const state = stateOf(row, c.fingerprint, nowIso);
    if (state.kind !== 'free') return state;
    // Past 24 hours the key is new again (contract, Idempotency rule 5): drop the old claim and take it.
    await tx.deleteFrom('idempotency_keys').where('key_hash', '=', c.claim.keyHash).where('expires_at', '<=', nowIso).execute();
  }
  return { kind: 'in_use' };
}

/**
 * Stores the success response of a claim still in flight, by its owner (the request's token). Returns false
 * when the claim is no longer in flight for that owner (completed already by the follow-up job, or released
 * because the attempt failed).
 */
export async function completeClaim(db: Executor, claim: ClaimRef, status: number, body: unknown): Promise<boolean> {
  const res = await completeByToken.run(db, { key_hash: claim.keyHash, owner: claim.token, status, body: JSON.stringify(body) });
  return res.changed === 1;
}

/**
 * Stores the success response of a claim still in flight, by the attempt it created: the follow-up job's
 * recovery, which is not the request and does not branch on the outcome (a claim already completed or released
 * stays as it is).
 */
export async function completeClaimOfPayout(tx: Tx, keyHash: string, payoutId: string, status: number, body: unknown): Promise<void> {
  await completeByPayout.run(tx, { key_hash: keyHash, status, body: JSON.stringify(body), owner: payoutId });
}

export async function storedResponse(db: Executor, keyHash: string): Promise<{ status: number; body: unknown } | null> {
  const row = await db.selectFrom('idempotency_keys').select(['state', 'response_status', 'response_body']).where('key_hash', '=', keyHash).executeTakeFirst();
  if (!row || row.state !== 'completed') return null;
  return { status: row.response_status!, body: JSON.parse(row.response_body!) };
}

/** Errors are not stored (D18): a claim whose attempt failed is freed, so the key can be used again. */
export async function releaseClaimOfPayout(db: Executor, keyHash: string, payoutId: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('key_hash', '=', keyHash).where('payout_id', '=', payoutId).where('state', '=', 'in_flight').execute();
}

/** Bounded batches through the expiry index, so a purge never holds the store for long. */
export async function purgeExpiredKeys(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now().toISOString();
  return pruneInBatches(PURGE_BATCH, async (limit) => {
    const res = await ctx.store.db
      .deleteFrom('idempotency_keys')
      .where(inRowsOf(ctx.store, 'key_hash', ctx.store.db.selectFrom('idempotency_keys').select('key_hash').where('expires_at', '<=', now).orderBy('expires_at').limit(limit)))
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  });
}
