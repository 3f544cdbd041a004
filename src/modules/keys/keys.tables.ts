import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  /** SHA-256 hex of the full secret (D11); the secret itself is never stored. */
  key_hash: string;
  /** First characters of the secret, so an owner can tell keys apart. */
  key_prefix: string;
  created_at: string;
  /** Soft delete: payout attempts keep naming the key that created them. */
  deleted_at: string | null;
  /** D31 controls: JSON arrays of scopes and allowed destinations, limits in centavos (0 = none), expiry. */
  scopes: string;
  allowlist: string;
  per_tx_limit: number;
  daily_limit: number;
  monthly_limit: number;
  expires_at: string | null;
  /** Refreshed at most once a minute, so using a key costs no write per request. */
  last_used_at: string | null;
  /** D44: `key` (a secret the owner copies) or `oauth` (an app the owner connected; its key_hash matches nothing). */
  kind: 'key' | 'oauth';
  /** D44: for `oauth`, the OAuth client and the grant whose tokens act as this key. */
  oauth_client_id: string | null;
  oauth_grant_id: string | null;
}

export interface KeysTables {
  api_keys: ApiKeysTable;
}

export const keysMigrations: Record<string, Migration> = {
  '0002_api_keys': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('key_prefix', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .execute();
      await db.schema.createIndex('api_keys_user_idx').on('api_keys').columns(['user_id', 'created_at']).execute();
    },
  },
  '0015_api_key_controls': {
    async up(db: Kysely<unknown>) {
      const all = JSON.stringify(['payouts:write', 'payouts:read', 'wallet:read', 'transfer:write', 'transactions:read', 'thresholds:read', 'thresholds:propose']);
      await db.schema.alterTable('api_keys').addColumn('scopes', 'text', (c) => c.notNull().defaultTo(all)).execute();
      await db.schema.alterTable('api_keys').addColumn('allowlist', 'text', (c) => c.notNull().defaultTo('[]')).execute();
      await db.schema.alterTable('api_keys').addColumn('per_tx_limit', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('api_keys').addColumn('daily_limit', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('api_keys').addColumn('monthly_limit', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('api_keys').addColumn('expires_at', 'text').execute();
      await db.schema.alterTable('api_keys').addColumn('last_used_at', 'text').execute();
    },
  },
  '0023_api_key_kind': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('api_keys').addColumn('kind', 'text', (c) => c.notNull().defaultTo('key')).execute();
      await db.schema.alterTable('api_keys').addColumn('oauth_client_id', 'text').execute();
      await db.schema.alterTable('api_keys').addColumn('oauth_grant_id', 'text').execute();
    },
  },
};
