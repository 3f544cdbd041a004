import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Per-user policy limits in centavos (0 = disabled); absent row = server defaults. */
export interface ThresholdsTable {
  user_id: string;
  per_tx_limit: number;
  daily_limit: number;
  monthly_limit: number;
  require_approval_above: number;
  /** JSON array of CBU/CVU/alias strings. */
  whitelist: string;
  updated_at: string;
}

export interface ThresholdsTables {
  thresholds: ThresholdsTable;
}

export const thresholdsMigrations: Record<string, Migration> = {
  '0006_thresholds': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('thresholds')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('per_tx_limit', 'bigint', (c) => c.notNull())
        .addColumn('daily_limit', 'bigint', (c) => c.notNull())
        .addColumn('monthly_limit', 'bigint', (c) => c.notNull())
        .addColumn('require_approval_above', 'bigint', (c) => c.notNull())
        .addColumn('whitelist', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
};
