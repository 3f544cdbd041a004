import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** D18: one row per (user, supplied key), hashed; a stored success response is replayed for 24 hours. */
export interface IdempotencyKeysTable {
  key_hash: string;
  user_id: string;
  state: 'in_flight' | 'completed';
  /** The attempt this key created (lets recovery finish an interrupted request). */
  payout_id: string | null;
  /** D27: the owner of the claim; only it may complete it. Null on rows from before D27. */
  claim_token: string | null;
  /** D27: SHA-256 of the request (amount, destination, kind, note); another request with the key is refused. */
  fingerprint: string | null;
  response_status: number | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeysTable;
}

export const idempotencyMigrations: Record<string, Migration> = {
  '0009_idempotency_keys': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('key_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('payout_id', 'text')
        .addColumn('response_status', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('idempotency_keys_expiry_idx').on('idempotency_keys').column('expires_at').execute();
    },
  },
  '0013_idempotency_claim_owner': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('idempotency_keys').addColumn('claim_token', 'text').execute();
      await db.schema.alterTable('idempotency_keys').addColumn('fingerprint', 'text').execute();
    },
  },
};
