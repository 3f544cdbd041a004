import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Whether the linked chat can be reached: `undeliverable` once Telegram refused a message to it (blocked bot, chat gone). */
export type TelegramLinkState = 'active' | 'undeliverable';

export interface TelegramLinksTable {
  user_id: string;
  chat_id: string;
  username: string | null;
  linked_at: string;
  state: TelegramLinkState;
  /** What Telegram answered (error code and description) when `state` is not `active`. */
  error_code: number | null;
  error_text: string | null;
  error_at: string | null;
}
/** One-time deep-link codes (`/start <code>`), valid 15 minutes. */
export interface TelegramLinkCodesTable {
  code: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
/** The approval messages sent, so outcomes can edit them. */
export interface TelegramMessagesTable {
  approval_id: string;
  chat_id: string;
  message_id: number;
  created_at: string;
}
/**
 * Telegram redelivers updates: each update id is handled once. `received_at` is when a node took it; `handled_at`
 * stays null until that node finished, so a node that died while handling it does not make its redelivery a repeat.
 */
export interface TelegramUpdatesTable {
  update_id: number;
  received_at: string;
  handled_at: string | null;
}

export interface TelegramTables {
  telegram_links: TelegramLinksTable;
  telegram_link_codes: TelegramLinkCodesTable;
  telegram_messages: TelegramMessagesTable;
  telegram_updates: TelegramUpdatesTable;
}

export const telegramMigrations: Record<string, Migration> = {
  '0012_telegram': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('telegram_links')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('chat_id', 'text', (c) => c.notNull())
        .addColumn('username', 'text')
        .addColumn('linked_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('telegram_link_codes')
        .addColumn('code', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema
        .createTable('telegram_messages')
        .addColumn('approval_id', 'text', (c) => c.notNull())
        .addColumn('chat_id', 'text', (c) => c.notNull())
        .addColumn('message_id', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('telegram_messages_pk', ['approval_id', 'chat_id'])
        .execute();
      await db.schema
        .createTable('telegram_updates')
        .addColumn('update_id', 'bigint', (c) => c.primaryKey())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0013_telegram_retention': {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('telegram_updates_received_idx').on('telegram_updates').column('received_at').execute();
      await db.schema.createIndex('telegram_link_codes_expiry_idx').on('telegram_link_codes').column('expires_at').execute();
    },
  },
  '0024_telegram_link_state': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('telegram_links').addColumn('state', 'text', (c) => c.notNull().defaultTo('active')).execute();
      await db.schema.alterTable('telegram_links').addColumn('error_code', 'integer').execute();
      await db.schema.alterTable('telegram_links').addColumn('error_text', 'text').execute();
      await db.schema.alterTable('telegram_links').addColumn('error_at', 'text').execute();
      // An update from a chat that was undeliverable finds its link by chat.
      await db.schema.createIndex('telegram_links_chat_idx').on('telegram_links').column('chat_id').execute();
    },
  },
  '0026_telegram_updates_handled': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('telegram_updates').addColumn('handled_at', 'text').execute();
      // Updates taken before this column existed count as handled, as they did.
      await sql`update telegram_updates set handled_at = received_at`.execute(db);
    },
  },
};
