import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export type KycStatus = 'pending' | 'verified' | 'rejected';

/** A user's onboarding result (D10): legal identity, the CVU the rail issued, and the KYC status. */
export interface WalletsTable {
  user_id: string;
  legal_id: string;
  legal_name: string;
  cvu: string;
  alias: string;
  kyc_status: KycStatus;
  created_at: string;
  updated_at: string;
}

export interface WalletTables {
  wallets: WalletsTable;
}

export const walletMigrations: Record<string, Migration> = {
  '0005_wallets': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('wallets')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('legal_id', 'text', (c) => c.notNull())
        .addColumn('legal_name', 'text', (c) => c.notNull())
        .addColumn('cvu', 'text', (c) => c.notNull().unique())
        .addColumn('alias', 'text', (c) => c.notNull())
        .addColumn('kyc_status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
};
