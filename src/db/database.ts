import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

export type Tx = Transaction<Database>;
export type Executor = Kysely<Database> | Tx;

/**
 * Opens the store chosen by config (D1, D3): PostgreSQL when a URL is given, else SQLite at `sqliteFile`
 * (`:memory:` allowed). SQLite runs through one connection that Kysely serialises, so a transaction there is
 * exclusive; on PostgreSQL concurrency is handled with row locks and conditional updates (see `lockForUpdate`).
 */
export function openStore(opts: { databaseUrl: string; sqliteFile: string }): Store {
  if (opts.databaseUrl) {
    // int8 columns hold centavos and counters, always far below 2^53: return them as numbers.
    const types = {
      getTypeParser: (oid: number, format?: 'text' | 'binary') =>
        oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format),
    };
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10, types });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  if (opts.sqliteFile !== ':memory:') mkdirSync(path.dirname(opts.sqliteFile), { recursive: true });
  const database = new SQLite(opts.sqliteFile);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

export async function ping(store: Store): Promise<void> {
  await sql`select 1`.execute(store.db);
}

/**
 * Locks the selected rows until the transaction ends. PostgreSQL needs `FOR UPDATE`; on SQLite the
 * transaction already holds the only connection, so the query runs as is.
 */
export function forUpdate<Q extends { forUpdate(): Q }>(store: Store, q: Q): Q {
  return store.dialect === 'postgres' ? q.forUpdate() : q;
}

/** Whether an error is a unique-constraint violation, on either store. */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
