import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * D34: the wallet's history of money moved, one row per payout that reached the rail (debit) and per incoming
 * deposit (credit). Written from the outbox in the same transaction as the event that tells of it, so the
 * history never disagrees with what was announced.
 */
export interface WalletTransactionsTable {
  id: string;
  user_id: string;
  type: 'debit' | 'credit';
  amount: number;
  /** Where the money went (debits) or came from (credits). */
  counterparty: string;
  counterparty_name: string | null;
  description: string;
  status: 'pending' | 'completed' | 'failed';
  /** The payout id (debits) or the rail's leg id (credits): one entry each. */
  source_id: string;
  created_at: string;
  updated_at: string;
}

export interface TransactionsTables {
  wallet_transactions: WalletTransactionsTable;
}

export const transactionsMigrations: Record<string, Migration> = {
  '0015_wallet_transactions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('wallet_transactions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('counterparty', 'text', (c) => c.notNull())
        .addColumn('counterparty_name', 'text')
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('source_id', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('wallet_transactions_user_id_idx').on('wallet_transactions').columns(['user_id', 'id']).execute();
    },
  },
};
