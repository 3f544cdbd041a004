import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export interface WebhooksTable {
  id: string;
  user_id: string;
  url: string;
  /** The signing secret, encrypted at rest (D24). */
  secret_enc: string;
  active: number;
  created_at: string;
  updated_at: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  user_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_response_status: number | null;
  last_error: string | null;
  /** Claim lease: one worker instance owns the delivery until `locked_until`. */
  lock_token: string | null;
  locked_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhooksTables {
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

export const webhooksMigrations: Record<string, Migration> = {
  '0011_webhooks': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhooks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('secret_enc', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('webhook_id', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempt_count', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'text')
        .addColumn('last_attempt_at', 'text')
        .addColumn('last_response_status', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('lock_token', 'text')
        .addColumn('locked_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('webhook_deliveries_user_idx').on('webhook_deliveries').columns(['user_id', 'created_at']).execute();
    },
  },
  // Named apart from other modules' migrations: names sort globally and must never collide.
  '0014_webhooks_lease_and_prune': {
    async up(db: Kysely<unknown>) {
      // A worker reads back and renews what it claimed by its token; only rows in flight carry one, so the
      // partial index stays as small as the work in progress.
      await db.schema
        .createIndex('webhook_deliveries_lock_idx')
        .on('webhook_deliveries')
        .column('lock_token')
        .where(sql.ref('lock_token'), 'is not', null)
        .execute();
      // Retention (7 days) deletes oldest first in bounded batches.
      await db.schema.createIndex('webhook_deliveries_created_idx').on('webhook_deliveries').column('created_at').execute();
    },
  },
  // A finished delivery (sent or given up) has no next attempt, yet stayed in the due index until
  // retention removed it, and finishing it wrote a new entry. Partial, the index holds the backlog only.
  '0018_webhook_deliveries_due_partial': {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('webhook_deliveries_due_idx').execute();
      await db.schema
        .createIndex('webhook_deliveries_due_idx')
        .on('webhook_deliveries')
        .columns(['status', 'next_attempt_at'])
        .where(sql.ref('next_attempt_at'), 'is not', null)
        .execute();
    },
  },
};
