import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Store } from '../../db/database.js';

/**
 * Anyone may register a client (dynamic registration needs no credential), so a registration is provisional: it
 * lasts this long unless the owner grants it something (keepClient), and is then pruned like any expired record.
 * A host registers just before it asks for authorization, so a day is ample; one that comes back later registers
 * again, as hosts do when their client id is unknown. Its registration access token (read-only here: registration
 * management is off) lasts as long.
 */
export const UNGRANTED_CLIENT_TTL_MS = 24 * 60 * 60 * 1000;
const PROVISIONAL = new Set(['Client', 'RegistrationAccessToken']);

/** The models whose use is the grant itself (a code, a rotated refresh token): consumed by exactly one request. */
const USED_ONCE: Record<string, string> = { AuthorizationCode: 'authorization code', RefreshToken: 'refresh token' };

/**
 * D44: oidc-provider's storage over our store (SQLite or PostgreSQL alike), one adapter per model of the library.
 * Expiry is the library's own clock (it sets `expiresIn` from the wall clock), so it is checked against
 * `Date.now()` rather than the service's clock.
 */
export class StoreAdapter implements Adapter {
  constructor(
    private readonly store: Store,
    private readonly model: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const provisional = typeof expiresIn !== 'number' && PROVISIONAL.has(this.model);
    const { expires_at, ...row } = {
      payload: JSON.stringify(payload),
      grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
      uid: typeof payload.uid === 'string' ? payload.uid : null,
      user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
      expires_at: typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : provisional ? Date.now() + UNGRANTED_CLIENT_TTL_MS : null,
    };
    await this.store.db
      .insertInto('oauth_records')
      .values({ model: this.model, id, consumed_at: null, expires_at, ...row })
      // A provisional record saved again keeps its expiry (or the permanence keepClient gave it).
      .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(provisional ? row : { ...row, expires_at }))
      .execute();
  }

  private async findWhere(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
    const row = await this.store.db
      .selectFrom('oauth_records')
      .select(['payload', 'expires_at', 'consumed_at'])
      .where('model', '=', this.model)
      .where(column, '=', value)
      .executeTakeFirst();
    if (!row || (row.expires_at !== null && Number(row.expires_at) <= Date.now())) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    return row.consumed_at === null ? payload : { ...payload, consumed: Number(row.consumed_at) };
  }

  find(id: string) {
    return this.findWhere('id', id);
  }

  findByUid(uid: string) {
    return this.findWhere('uid', uid);
  }

  findByUserCode(userCode: string) {
    return this.findWhere('user_code', userCode);
  }

  /**
   * D44: a code or a rotated refresh token is used once. The library checks `consumed` when it reads the record
   * and marks it later, so two uses arriving together would both pass its check: the mark is a conditional update,
   * and the use that finds it already set is refused and ends the grant, as the library does for a use after it.
   */
  async consume(id: string): Promise<void> {
    const once = USED_ONCE[this.model];
    // In a transaction of its own: a COMMIT whose answer is lost is resolved by asking the server (D42). As a lone
    // statement, its lost answer was a 503 for a use that had counted, and the client's retry then ended the grant.
    const res = await this.store.transaction((tx) => {
      let update = tx.updateTable('oauth_records').set({ consumed_at: Math.floor(Date.now() / 1000) }).where('model', '=', this.model).where('id', '=', id);
      if (once) update = update.where('consumed_at', 'is', null);
      return update.executeTakeFirst();
    });
    if (!once || Number(res.numUpdatedRows) === 1) return;
    const row = await this.store.db.selectFrom('oauth_records').select('grant_id').where('model', '=', this.model).where('id', '=', id).executeTakeFirst();
    if (row?.grant_id) await revokeGrantRecords(this.store, row.grant_id);
    throw new errors.InvalidGrant(`${once} already used`);
  }

  async destroy(id: string): Promise<void> {
    await this.store.db.deleteFrom('oauth_records').where('model', '=', this.model).where('id', '=', id).execute();
  }

  /** Every code and token of the grant, whatever its model (the library calls it on one model's adapter). */
  async revokeByGrantId(grantId: string): Promise<void> {
    await revokeGrantRecords(this.store, grantId);
  }
}

/**
 * D44: the owner's decision on an interaction claims its record first, by a conditional update, so of two decisions
 * arriving together (two tabs, a double click) exactly one goes on; the other changes nothing. `consumed_at` marks
 * the claim: the library never consumes an interaction itself, and ignores the mark (not part of its payload).
 */
export async function claimInteraction(store: Store, uid: string): Promise<boolean> {
  // A transaction of its own, as `consume`: a lost answer would leave the claim made and the owner refused (409).
  const res = await store.transaction((tx) =>
    tx
      .updateTable('oauth_records')
      .set({ consumed_at: Math.floor(Date.now() / 1000) })
      .where('model', '=', 'Interaction')
      .where('id', '=', uid)
      .where('consumed_at', 'is', null)
      .executeTakeFirst(),
  );
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Gives back a claim or a use that got its request nothing, so it can be made again: a consent decision that failed
 * after its claim (model `Interaction`), or a code or refresh token whose token request the store failed after it.
 */
export async function releaseUse(store: Store, model: string, id: string): Promise<void> {
  await store.db.updateTable('oauth_records').set({ consumed_at: null }).where('model', '=', model).where('id', '=', id).execute();
}

/** The grant and everything issued under it. */
export async function revokeGrantRecords(store: Store, grantId: string): Promise<void> {
  await store.db.deleteFrom('oauth_records').where('grant_id', '=', grantId).execute();
  await store.db.deleteFrom('oauth_records').where('model', '=', 'Grant').where('id', '=', grantId).execute();
}

/** The owner granted this client something: its registration is kept from now on (see UNGRANTED_CLIENT_TTL_MS). */
export async function keepClient(store: Store, clientId: string): Promise<void> {
  await store.db.updateTable('oauth_records').set({ expires_at: null }).where('model', '=', 'Client').where('id', '=', clientId).execute();
}

/** Records past their expiry, unused registrations among them (the hourly prune); the expiry index serves it. */
export async function pruneExpiredRecords(store: Store): Promise<number> {
  const res = await store.db.deleteFrom('oauth_records').where('expires_at', '<=', Date.now()).executeTakeFirst();
  return Number(res.numDeletedRows);
}
