import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * D44: what the OAuth authorization server keeps (clients registered dynamically, interactions, sessions,
 * grants, codes, access and refresh tokens), one row per record of the library's models, its payload as JSON.
 */
export interface OAuthRecordsTable {
  model: string;
  id: string;
  payload: string;
  /** The grant a code or token belongs to: revoking the grant deletes them all. */
  grant_id: string | null;
  /** A session's uid (the library looks sessions up by it). */
  uid: string | null;
  user_code: string | null;
  /** Epoch milliseconds; null = never. An expired record is not found, and is pruned. */
  expires_at: number | null;
  /** Epoch seconds when a code or refresh token was used, or an interaction claimed by the owner's decision. */
  consumed_at: number | null;
}

export interface OAuthTables {
  oauth_records: OAuthRecordsTable;
}

export const oauthMigrations: Record<string, Migration> = {
  '0023_oauth_records': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('oauth_records')
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('grant_id', 'text')
        .addColumn('uid', 'text')
        .addColumn('user_code', 'text')
        .addColumn('expires_at', 'bigint')
        .addColumn('consumed_at', 'bigint')
        .addPrimaryKeyConstraint('oauth_records_pk', ['model', 'id'])
        .execute();
      await db.schema.createIndex('oauth_records_grant_idx').on('oauth_records').column('grant_id').execute();
      await db.schema.createIndex('oauth_records_uid_idx').on('oauth_records').columns(['model', 'uid']).execute();
      await db.schema.createIndex('oauth_records_expiry_idx').on('oauth_records').column('expires_at').execute();
    },
  },
  '0025_oauth_ungranted_clients': {
    // Registrations kept before they became provisional: those no agent came from get the day a new one gets, and
    // registration access tokens (only for reading a registration back) that day too.
    async up(db: Kysely<unknown>) {
      const until = Date.now() + 24 * 60 * 60 * 1000;
      await sql`update oauth_records set expires_at = ${until}
        where expires_at is null and (model = 'RegistrationAccessToken'
          or (model = 'Client' and id not in (select oauth_client_id from api_keys where oauth_client_id is not null)))`.execute(db);
    },
  },
};
