import type { Kysely, Migration } from 'kysely';

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
};
