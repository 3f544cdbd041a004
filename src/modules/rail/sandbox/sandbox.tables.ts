import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** The sandbox bank's own double-entry ledger (D25), kept in our store but reached only through the port. */
export interface RailAccountsTable {
  id: string;
  owner_ref: string | null;
  cvu: string | null;
  alias: string | null;
  holder_name: string;
  holder_legal_id: string;
  /**
   * `world` stands for every other bank. It keeps no running balance (always 0), so no payout waits on its row;
   * its balance, minus all money inside the sandbox, is the sum of its legs.
   */
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

/**
 * The sandbox bank's outbox of incoming credits (what a BaaS sends as webhooks): one row per completed credit leg
 * to a customer, written in the leg's transaction, deleted once acknowledged, kept with a reason if it fails.
 */
export interface RailIncomingNoticesTable {
  /** The credit leg's id: one notice per leg. */
  id: string;
  cvu: string;
  /** The leg as the port reports it (JSON of a TransferLeg). */
  leg: string;
  status: 'pending' | 'failed';
  /** How many times it was taken; a notice taken too often without an answer is set aside (D29). */
  attempts: number;
  lock_token: string | null;
  locked_until: string | null;
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface SandboxRailTables {
  rail_accounts: RailAccountsTable;
  rail_transfers: RailTransfersTable;
  rail_legs: RailLegsTable;
  rail_incoming_notices: RailIncomingNoticesTable;
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
  '0013_rail_incoming_notices': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('rail_incoming_notices')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('cvu', 'text', (c) => c.notNull())
        .addColumn('leg', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lock_token', 'text')
        .addColumn('locked_until', 'text')
        .addColumn('failure_reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rail_incoming_notices_due_idx').on('rail_incoming_notices').columns(['status', 'created_at']).execute();
      await backfillNotices(db as Kysely<SandboxRailTables>);
    },
  },
  '0014_rail_world_without_balance': {
    async up(db: Kysely<unknown>) {
      // From here on the world's balance is derived from its legs; a stale running total would only mislead.
      await (db as Kysely<SandboxRailTables>).updateTable('rail_accounts').set({ balance: 0 }).where('kind', '=', 'world').execute();
    },
  },
  // Settled transfers stayed in the due index forever, and settling one wrote a new entry. Partial, it
  // holds the transfers still to settle; `settleDue` names the status as a literal so that both stores can match
  // the index's condition (a bound parameter cannot be matched on SQLite).
  '0018_rail_transfers_due_in_progress': {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('rail_transfers_due_idx').execute();
      await db.schema
        .createIndex('rail_transfers_due_idx')
        .on('rail_transfers')
        .column('confirm_after')
        .where(sql.ref('status'), '=', 'IN_PROGRESS')
        .execute();
    },
  },
};

/**
 * The notice's leg as the port described it when this migration was written. Frozen here: a migration must give
 * the same rows whatever the service's code has become since.
 */
function frozenCreditLeg(t: RailTransfersTable, id: string, createdAt: string) {
  return {
    id,
    from: t.from_identifier,
    to: t.to_identifier,
    fromLegalId: t.from_legal_id,
    toLegalId: t.to_legal_id,
    fromName: t.from_name,
    toName: t.to_name,
    amountCentavos: Number(t.amount),
    currency: 'ARS',
    status: 'COMPLETED',
    creationTime: createdAt,
    direction: 'credit',
    isReversal: false,
  };
}

/**
 * Before notices, deposits were found by listing each wallet's recent legs. Every completed incoming credit gets
 * a notice once, so none that arrived around the upgrade is missed; those already announced are deduplicated
 * by the detector (`deposit.detected:<leg id>`).
 */
async function backfillNotices(db: Kysely<SandboxRailTables>): Promise<void> {
  const now = new Date().toISOString();
  for (let after = ''; ; ) {
    const page = await db
      .selectFrom('rail_legs as l')
      .innerJoin('rail_transfers as t', 't.id', 'l.transfer_id')
      .selectAll('t')
      .select(['l.id as leg_id', 'l.created_at as leg_created_at'])
      .where('l.id', '>', after)
      .where('l.amount', '>', 0)
      .where('l.is_reversal', '=', 0)
      .where('l.account_id', '!=', WORLD_ACCOUNT_ID)
      .where('t.status', '=', 'COMPLETED')
      .orderBy('l.id')
      .limit(500)
      .execute();
    if (page.length === 0) return;
    await db
      .insertInto('rail_incoming_notices')
      .values(
        page.map((r) => ({
          id: r.leg_id,
          cvu: r.to_identifier,
          leg: JSON.stringify(frozenCreditLeg(r, r.leg_id, r.leg_created_at)),
          status: 'pending' as const,
          attempts: 0,
          lock_token: null,
          locked_until: null,
          failure_reason: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    after = page[page.length - 1]!.leg_id;
  }
}
