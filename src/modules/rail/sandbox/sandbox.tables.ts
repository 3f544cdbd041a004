import { sql, type Kysely, type Migration } from 'kysely';

/** The sandbox bank's own double-entry ledger (D25), kept in our store but reached only through the port. */
export interface RailAccountsTable {
  id: string;
  owner_ref: string | null;
  cvu: string | null;
  alias: string | null;
  holder_name: string;
  holder_legal_id: string;
  /** `world` stands for every other bank: its balance is the negative of all money inside the sandbox. */
  kind: 'customer' | 'world';
  balance: number;
  created_at: string;
}

export interface RailTransfersTable {
  id: string;
  reference: string;
  from_account_id: string;
  to_account_id: string;
  from_identifier: string;
  from_name: string;
  from_legal_id: string;
  to_identifier: string;
  to_name: string;
  to_legal_id: string;
  amount: number;
  status: 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
  failure_reason: string | null;
  /** Magic destination behaviour to play out at settlement (`fail`), or null. */
  scenario: string | null;
  description: string | null;
  created_at: string;
  confirm_after: string;
  completed_at: string | null;
}

export interface RailLegsTable {
  id: string;
  transfer_id: string;
  account_id: string;
  /** Signed centavos: negative debits, positive credits; the legs of a transfer sum to zero. */
  amount: number;
  is_reversal: number;
  created_at: string;
}

export interface SandboxRailTables {
  rail_accounts: RailAccountsTable;
  rail_transfers: RailTransfersTable;
  rail_legs: RailLegsTable;
}

export const WORLD_ACCOUNT_ID = 'acc_world';

export const sandboxRailMigrations: Record<string, Migration> = {
  '0003_sandbox_rail': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('rail_accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_ref', 'text', (c) => c.unique())
        .addColumn('cvu', 'text', (c) => c.unique())
        .addColumn('alias', 'text', (c) => c.unique())
        .addColumn('holder_name', 'text', (c) => c.notNull())
        .addColumn('holder_legal_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addCheckConstraint('rail_accounts_balance_nonnegative', sql`kind = 'world' or balance >= 0`)
        .execute();
      await db.schema
        .createTable('rail_transfers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('reference', 'text', (c) => c.notNull().unique())
        .addColumn('from_account_id', 'text', (c) => c.notNull().references('rail_accounts.id'))
        .addColumn('to_account_id', 'text', (c) => c.notNull().references('rail_accounts.id'))
        .addColumn('from_identifier', 'text', (c) => c.notNull())
        .addColumn('from_name', 'text', (c) => c.notNull())
        .addColumn('from_legal_id', 'text', (c) => c.notNull())
        .addColumn('to_identifier', 'text', (c) => c.notNull())
        .addColumn('to_name', 'text', (c) => c.notNull())
        .addColumn('to_legal_id', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('failure_reason', 'text')
        .addColumn('scenario', 'text')
        .addColumn('description', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('confirm_after', 'text', (c) => c.notNull())
        .addColumn('completed_at', 'text')
        .addCheckConstraint('rail_transfers_amount_positive', sql`amount > 0`)
        .execute();
      await db.schema.createIndex('rail_transfers_due_idx').on('rail_transfers').columns(['status', 'confirm_after']).execute();
      await db.schema
        .createTable('rail_legs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('transfer_id', 'text', (c) => c.notNull().references('rail_transfers.id'))
        .addColumn('account_id', 'text', (c) => c.notNull().references('rail_accounts.id'))
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('is_reversal', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rail_legs_account_idx').on('rail_legs').columns(['account_id', 'created_at']).execute();
      await db.schema.createIndex('rail_legs_transfer_idx').on('rail_legs').column('transfer_id').execute();
      await (db as Kysely<SandboxRailTables>)
        .insertInto('rail_accounts')
        .values({
          id: WORLD_ACCOUNT_ID,
          owner_ref: null,
          cvu: null,
          alias: null,
          holder_name: 'Other banks',
          holder_legal_id: '',
          kind: 'world',
          balance: 0,
          created_at: new Date(0).toISOString(),
        })
        .execute();
    },
  },
};
