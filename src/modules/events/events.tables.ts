import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The outbox (D24): every state change writes its event row in the same transaction as the change. Delivery
 * to webhooks reads from here, so an event that was committed is never lost.
 */
export interface EventsTable {
  id: string;
  user_id: string;
  type: string;
  /** JSON text of the event's `data`. */
  data: string;
  created_at: string;
  /** Set for events that must exist at most once (e.g. one `deposit.detected` per incoming leg). */
  dedupe_key: string | null;
}

export interface EventsTables {
  events: EventsTable;
}

export const eventsMigrations: Record<string, Migration> = {
  '0004_events': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('dedupe_key', 'text', (c) => c.unique())
        .execute();
      await db.schema.createIndex('events_user_idx').on('events').columns(['user_id', 'created_at']).execute();
    },
  },
  // Nothing in the service reads events by user (deliveries read them by id), yet every event, three
  // per payout, wrote this index.
  '0017_drop_events_user_idx': {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('events_user_idx').execute();
    },
  },
};
