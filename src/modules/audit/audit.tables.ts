import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Who asked for what and what the service answered, including requests that changed nothing (D17). */
export interface AuditLogTable {
  id: string;
  user_id: string;
  api_key_id: string | null;
  api_key_name: string | null;
  action: string;
  subject_id: string | null;
  /** JSON details. */
  data: string;
  created_at: string;
}

export interface AuditTables {
  audit_log: AuditLogTable;
}

export const auditMigrations: Record<string, Migration> = {
  '0010_audit_log': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('api_key_id', 'text')
        .addColumn('api_key_name', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text')
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_log_user_idx').on('audit_log').columns(['user_id', 'created_at']).execute();
    },
  },
  // The activity screen pages a user's entries by id (time-sortable, D6), newest first: `where user_id = ? and
  // id < cursor order by id desc` must walk this index rather than sort the user's whole history.
  '0015_audit_user_id_idx': {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('audit_log_user_id_idx').on('audit_log').columns(['user_id', 'id']).execute();
    },
  },
  // Superseded by audit_log_user_id_idx, and written on every payout for nothing.
  '0016_drop_audit_user_created_idx': {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('audit_log_user_idx').execute();
    },
  },
};
