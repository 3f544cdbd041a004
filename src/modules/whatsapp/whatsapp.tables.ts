import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Whether the linked number can be reached (D45): a delivery failure or a template error shows on the dashboard. */
export type WhatsAppLinkState = 'active' | 'undeliverable' | 'template_error';

/** The owner's linked WhatsApp number (one per user). `wa_id` is never shown whole outside the service. */
export interface WhatsAppLinksTable {
  user_id: string;
  wa_id: string;
  linked_at: string;
  state: WhatsAppLinkState;
  /** The last error the Cloud API reported for this number (code and text), when `state` is not `active`. */
  error_code: number | null;
  error_text: string | null;
  error_at: string | null;
}
/** One-time codes the owner sends from their phone to link it, valid 15 minutes. */
export interface WhatsAppLinkCodesTable {
  code: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
/** The approval templates sent (one per approval and number), so a repeat notice sends nothing twice. */
export interface WhatsAppMessagesTable {
  wamid: string;
  approval_id: string;
  user_id: string;
  wa_id: string;
  created_at: string;
}
/**
 * Wrong link codes a number sent in its current window: past the limit the number's codes are not read until the
 * window ends, so nobody can keep guessing. One row per number that sent a wrong code lately; pruned after.
 */
export interface WhatsAppLinkAttemptsTable {
  wa_id: string;
  failures: number;
  window_started_at: string;
}
/**
 * Inbound message ids taken: the Cloud API delivers at least once and in any order. `received_at` is when a node took
 * the message; `handled_at` stays null until that node finished, so a node that died while handling it does not make
 * its redelivery a repeat.
 */
export interface WhatsAppInboundTable {
  message_id: string;
  received_at: string;
  handled_at: string | null;
}

export interface WhatsAppTables {
  whatsapp_links: WhatsAppLinksTable;
  whatsapp_link_codes: WhatsAppLinkCodesTable;
  whatsapp_messages: WhatsAppMessagesTable;
  whatsapp_inbound: WhatsAppInboundTable;
  whatsapp_link_attempts: WhatsAppLinkAttemptsTable;
}

export const whatsappMigrations: Record<string, Migration> = {
  '0022_whatsapp': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('whatsapp_links')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('wa_id', 'text', (c) => c.notNull())
        .addColumn('linked_at', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('active'))
        .addColumn('error_code', 'integer')
        .addColumn('error_text', 'text')
        .addColumn('error_at', 'text')
        .execute();
      // A number decides for one owner only: linking it elsewhere replaces the older link.
      await db.schema.createIndex('whatsapp_links_wa_idx').on('whatsapp_links').column('wa_id').unique().execute();
      await db.schema
        .createTable('whatsapp_link_codes')
        .addColumn('code', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('whatsapp_link_codes_expiry_idx').on('whatsapp_link_codes').column('expires_at').execute();
      await db.schema
        .createTable('whatsapp_messages')
        .addColumn('wamid', 'text', (c) => c.primaryKey())
        .addColumn('approval_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('wa_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('whatsapp_messages_approval_idx').on('whatsapp_messages').columns(['approval_id', 'wa_id']).unique().execute();
      await db.schema
        .createTable('whatsapp_inbound')
        .addColumn('message_id', 'text', (c) => c.primaryKey())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('whatsapp_inbound_received_idx').on('whatsapp_inbound').column('received_at').execute();
    },
  },
  '0024_whatsapp_link_attempts': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('whatsapp_link_attempts')
        .addColumn('wa_id', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('window_started_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('whatsapp_link_attempts_window_idx').on('whatsapp_link_attempts').column('window_started_at').execute();
    },
  },
  '0026_whatsapp_inbound_handled': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('whatsapp_inbound').addColumn('handled_at', 'text').execute();
      // Messages taken before this column existed count as handled, as they did.
      await sql`update whatsapp_inbound set handled_at = received_at`.execute(db);
    },
  },
};
