import { sql } from 'kysely';
import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely/migration';
import { eventsMigrations } from '../modules/events/events.tables.js';
import { keysMigrations } from '../modules/keys/keys.tables.js';
import { sandboxRailMigrations } from '../modules/rail/sandbox/sandbox.tables.js';
import { thresholdsMigrations } from '../modules/thresholds/thresholds.tables.js';
import { payoutsMigrations } from '../modules/payouts/payouts.tables.js';
import { approvalsMigrations } from '../modules/approvals/approvals.tables.js';
import { idempotencyMigrations } from '../modules/idempotency/idempotency.tables.js';
import { auditMigrations } from '../modules/audit/audit.tables.js';
import { webhooksMigrations } from '../modules/webhooks/webhooks.tables.js';
import { telegramMigrations } from '../modules/telegram/telegram.tables.js';
import { whatsappMigrations } from '../modules/whatsapp/whatsapp.tables.js';
import { walletMigrations } from '../modules/wallet/wallet.tables.js';
import { usersMigrations } from '../modules/users/users.tables.js';
import { transactionsMigrations } from '../modules/transactions/transactions.tables.js';
import { oauthMigrations } from '../modules/oauth/oauth.tables.js';
import { bindMigrations } from '../modules/rail/bind/bind.tables.js';
import type { Store } from './database.js';

/** One migration set for both stores, ordered by name; each module contributes its own. */
export const allMigrations: Record<string, Migration> = {
  ...usersMigrations,
  ...keysMigrations,
  ...sandboxRailMigrations,
  ...eventsMigrations,
  ...walletMigrations,
  ...thresholdsMigrations,
  ...payoutsMigrations,
  ...approvalsMigrations,
  ...idempotencyMigrations,
  ...auditMigrations,
  ...webhooksMigrations,
  ...telegramMigrations,
  ...transactionsMigrations,
  ...bindMigrations,
  ...whatsappMigrations,
  ...oauthMigrations,
};


/**
 * Kysely's migrator looks for its own tables in every schema it can see unless told which one: on PostgreSQL it is
 * the connection's current schema (the first of its `search_path`), so two deployments in two schemas of one
 * database (or two test apps) never take each other's migration tables for their own.
 */
export async function migratorFor(store: Store, migrations: Record<string, Migration> = allMigrations): Promise<Migrator> {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  if (store.dialect !== 'postgres') return new Migrator({ db: store.db, provider });
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db);
  return new Migrator({ db: store.db, provider, migrationTableSchema: rows[0]!.schema });
}

/**
 * How long a migration's statements and locks may take on PostgreSQL: a bound, a long one. The requests' bounds
 * (seconds) would cut a backfill over a large table, or a second node waiting for the first one's migrations, and
 * stop every node at start.
 */
const MIGRATION_TIMEOUT_MS = 30 * 60_000;

export async function migrateToLatest(store: Store, migrations: Record<string, Migration> = allMigrations): Promise<void> {
  const check = ({ error, results }: MigrationResultSet): void => {
    const failed = results?.find((r) => r.status === 'Error');
    if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  };
  if (store.dialect !== 'postgres' || !store.withBounds) return check(await (await migratorFor(store, migrations)).migrateToLatest());
  // A connection of their own, with their own bounds; Kysely's migrator runs its transaction on it, rolled back
  // whole if a migration fails.
  await store.withBounds(MIGRATION_TIMEOUT_MS, async (db) => check(await (await migratorFor({ ...store, db }, migrations)).migrateToLatest()));
}

/** True when every known migration has run (used by /readyz). */
export async function migrationsComplete(store: Store): Promise<boolean> {
  const migrator = await migratorFor(store);
  const list = await migrator.getMigrations();
  return list.every((m) => m.executedAt !== undefined);
}
