import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * D43: BIND's incoming-transfer notices, kept as they arrive (webhook) or as the reconciliation finds them,
 * keyed by BIND's id of the transfer (its Coelsa id), so a repeated notice is a no-op. Rows answered `done` stay
 * a while, so a late repeat of the webhook or the reconciliation's next listing does not bring them back.
 */
export interface BindInboxTable {
  /** BIND's `data.id`: the transfer's Coelsa id. */
  id: string;
  /** The credited CVU (`data.details.origin_credit.cvu`). */
  cvu: string;
  /** The credit as the port reports it (JSON of a TransferLeg). */
  leg: string;
  /** Who told us: `webhook` or `reconciliation`. */
  source: string;
  status: 'pending' | 'done' | 'failed';
  /** How many times it was taken; one taken too often without an answer is set aside (D29). */
  attempts: number;
  lock_token: string | null;
  locked_until: string | null;
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface BindTables {
  bind_inbox: BindInboxTable;
}

export const bindMigrations: Record<string, Migration> = {
  '0020_bind_inbox': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('bind_inbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('cvu', 'text', (c) => c.notNull())
        .addColumn('leg', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lock_token', 'text')
        .addColumn('locked_until', 'text')
        .addColumn('failure_reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('bind_inbox_due_idx').on('bind_inbox').columns(['status', 'created_at']).execute();
    },
  },
};
