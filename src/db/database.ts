import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, type Expression, type LogEvent, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import type pg from 'pg';
import { DEFAULT_SQLITE_CACHE_MB } from '../config.js';
import { commitOutcome, openPostgresPool, type PostgresEvents, type PostgresLimits } from './postgres.js';
import type { Database } from './schema.js';
import { MAIN_AUTOCHECKPOINT_PAGES, SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES, startCheckpointer } from './sqlite-checkpointer.js';
import { GroupCommitSqliteDialect } from './sqlite-group-commit.js';
import { walSyncer, type WalSyncer } from './sqlite-wal-sync.js';
import { commitMayHaveHappened, StoreUnavailable } from './store-errors.js';

export type Dialect = 'sqlite' | 'postgres';

/** Sees every statement the store runs (tests check each one's query plan). */
export type QueryObserver = (sql: string, parameters: readonly unknown[], durationMs: number) => void;

/** What a pool is doing now (for /metrics). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /**
   * Runs `fn` in one transaction, then the callbacks that `afterCommit` registered on it (never on rollback).
   * On PostgreSQL a COMMIT whose answer was lost is resolved by asking the server (D42): if it committed, this
   * answers as if the answer had arrived; if not, or if the server cannot say, it throws `StoreUnavailable`.
   * `afterCommit: false` drops the callbacks: a caller about to do itself what they would wake a worker for.
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>, opts?: TransactionOptions): Promise<T>;
  /**
   * The same database for the background jobs, which finish work already accepted (confirmations, deliveries,
   * expiries). On PostgreSQL it has a small pool of its own, so a flood of requests can neither starve the jobs
   * nor be starved by them; on SQLite, with one connection, it is this store.
   */
  background: Store;
  /** The pool's state, on PostgreSQL. */
  poolStats?(): PoolStats;
  /** PostgreSQL: how long the owner's safety actions wait for a lock (see waitLongerForLocks). */
  safetyWaitMs?: number;
  /**
   * PostgreSQL: runs `fn` on a pool of one connection of its own whose every bound (the server's and the client's
   * wait for an answer) is `ms`, closed after: for the migrations at start, which the requests' seconds would cut.
   */
  withBounds?<T>(ms: number, fn: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export type Tx = Transaction<Database>;
export interface TransactionOptions {
  afterCommit?: boolean;
}
export type Executor = Kysely<Database> | Tx;

/** Each executor the store handed out, with its dialect, and for a transaction its after-commit callbacks. */
const executors = new WeakMap<object, { dialect: Dialect; hooks?: Array<() => void> }>();

/** The dialect of an executor this store handed out (its `db`, or a transaction it opened); undefined otherwise. */
export function dialectOf(db: Executor): Dialect | undefined {
  return executors.get(db)?.dialect;
}

/**
 * Calls `cb` once what `db` wrote is committed: at once for a plain connection, after the commit of a
 * transaction opened by `Store.transaction`. Inside a transaction opened otherwise it is never called, so it must
 * only speed things up (wake a worker), never be needed for correctness.
 */
export function afterCommit(db: Executor, cb: () => void): void {
  if (!db.isTransaction) {
    cb();
    return;
  }
  executors.get(db)?.hooks?.push(cb);
}

function runHooks(hooks: Array<() => void>): void {
  // Committed: a hook only wakes a worker, and one that throws must not turn the commit into a failure.
  for (const h of hooks) {
    try {
      h();
    } catch (err) {
      process.emitWarning(`an after-commit callback threw: ${String(err)}`);
    }
  }
}

function sqliteTransactions(db: Kysely<Database>) {
  return async <T>(fn: (tx: Tx) => Promise<T>, opts?: TransactionOptions): Promise<T> => {
    const hooks: Array<() => void> = [];
    const result = await db.transaction().execute((tx) => {
      executors.set(tx, { dialect: 'sqlite', hooks });
      return fn(tx);
    });
    if (opts?.afterCommit !== false) runHooks(hooks);
    return result;
  };
}

/**
 * PostgreSQL transactions (D42): one connection, one transaction, nothing shared with another request. Before the
 * COMMIT the transaction's id is read (one short statement), so that a COMMIT whose answer is lost (the connection
 * dropped, the session was terminated) can be resolved by asking the server with `pg_xact_status`.
 */
function postgresTransactions(db: Kysely<Database>, pool: pg.Pool, log: (msg: string, err: unknown) => void) {
  return async <T>(fn: (tx: Tx) => Promise<T>, opts?: TransactionOptions): Promise<T> => {
    const hooks: Array<() => void> = [];
    let result: T | undefined;
    // Assigned inside the callback, so typed by a cast: TypeScript would narrow a plain `= null` to null after it.
    let id = null as { xid: string | null; server: string } | null;
    let committing = false;
    try {
      await db.transaction().execute(async (tx) => {
        executors.set(tx, { dialect: 'postgres', hooks });
        result = await fn(tx);
        // With the server's start time: an id is only meaningful to the server that gave it (see commitOutcome).
        const { rows } = await sql<{ xid: string | null; server: string }>`select pg_current_xact_id_if_assigned()::text as xid, pg_postmaster_start_time()::text as server`.execute(tx);
        id = rows[0] ?? null;
        committing = true;
      });
    } catch (err) {
      // A transaction that wrote nothing has nothing to resolve; one the server answered was refused.
      if (!committing || !id?.xid || !commitMayHaveHappened(err)) throw err;
      const outcome = await commitOutcome(pool, { xid: id.xid, server: id.server });
      log(`a COMMIT's answer was lost; the server says: ${outcome ?? 'nothing (unreachable, or restarted or replaced since)'}`, err);
      if (outcome !== 'committed') {
        throw new StoreUnavailable(
          outcome === 'aborted' ? 'the database connection was lost; nothing was kept' : 'the database connection was lost and the outcome is not known yet',
          err,
          outcome === 'aborted' ? 'connection' : 'commit_unknown',
        );
      }
    }
    if (opts?.afterCommit !== false) runHooks(hooks);
    return result as T;
  };
}

function observer(onQuery: QueryObserver) {
  return (event: LogEvent) => {
    if (event.level === 'query') onQuery(event.query.sql, event.query.parameters, event.queryDurationMillis);
  };
}

export interface StoreOptions {
  databaseUrl: string;
  sqliteFile: string;
  /** PostgreSQL: the bounds of every wait (D42), for the requests' pool. */
  postgres?: Partial<PostgresLimits> & { jobsPoolMax?: number };
  /** See Config.database.sqliteSync; `inline` unless told. */
  sqliteSync?: 'background' | 'inline';
  /** SQLite with `background` sync: what syncs the log; `walSyncer` unless told (a test counts the syncs). */
  walSyncer?: (file: string) => WalSyncer;
  /** See Config.database.sqliteCacheMb; DEFAULT_SQLITE_CACHE_MB unless told. */
  sqliteCacheMb?: number;
  onQuery?: QueryObserver;
  /** SQLite: the checkpoint worker failed; the main connection checkpoints at SQLite's usual size again. */
  onCheckpointerFailure?: (err: unknown) => void;
  /** PostgreSQL: a connection was lost, its settings failed, or a lost COMMIT was resolved. */
  onPostgresEvent?: (msg: string, err: unknown) => void;
}

/** The bounds used when a store is opened without them (tests of the store itself); `Config.database` sets them. */
export const DEFAULT_POSTGRES_LIMITS: PostgresLimits = {
  poolMax: 10,
  checkoutTimeoutMs: 2_000,
  maxWaiting: 100,
  statementTimeoutMs: 5_000,
  lockTimeoutMs: 2_000,
  idleInTransactionTimeoutMs: 10_000,
};

/**
 * Opens the store chosen by config (D1, D3): PostgreSQL when a URL is given, else SQLite at `sqliteFile`
 * (`:memory:` allowed). SQLite runs through one connection, so a transaction there is exclusive, and concurrent
 * transactions share their commits (`sqlite-group-commit.ts`); on PostgreSQL concurrency is handled with row
 * locks and conditional updates (see `forUpdate`), each request on its own connection (D42).
 */
export function openStore(opts: StoreOptions): Store {
  const log = opts.onQuery ? observer(opts.onQuery) : undefined;
  if (opts.databaseUrl) return openPostgres(opts, log);
  return openSqlite(opts, log);
}

function openPostgres(opts: StoreOptions, log: ((e: LogEvent) => void) | undefined): Store {
  const limits = { ...DEFAULT_POSTGRES_LIMITS, ...opts.postgres };
  const report = opts.onPostgresEvent ?? (() => undefined);
  const events: PostgresEvents = {
    onConnectionError: (err) => report('a PostgreSQL connection was lost; the pool opens another when needed', err),
    onSettingsFailed: (err) => report('a new PostgreSQL connection refused the session bounds; it is closed', err),
  };
  // D35: never shorter than an agent's request may wait for a lock, whatever the settings say.
  const safetyWaitMs = Math.max(SAFETY_LOCK_WAIT_MS, limits.lockTimeoutMs);
  const open = (poolMax: number): Store => {
    // D35: the owner's safety actions raise the statement timeout for their transaction (waitLongerForLocks).
    const { pool, kysely } = openPostgresPool(opts.databaseUrl, { ...limits, poolMax, longestStatementMs: safetyWaitMs }, events);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: kysely }), log });
    executors.set(db, { dialect: 'postgres' });
    const store: Store = {
      db,
      dialect: 'postgres',
      transaction: postgresTransactions(db, pool, report),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      safetyWaitMs,
      background: undefined as unknown as Store,
      // Kysely's destroy does nothing to a driver it never started (a store only the migrations used), and the next
      // statement would start it again: the pool itself is ended too, so nothing runs after close.
      close: async () => {
        await db.destroy();
        if (!pool.ending) await pool.end();
      },
    };
    return store;
  };
  const requests = open(limits.poolMax);
  requests.withBounds = async (ms, fn) => {
    const bounds = { ...limits, poolMax: 1, statementTimeoutMs: ms, lockTimeoutMs: ms, idleInTransactionTimeoutMs: ms, longestStatementMs: ms };
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: openPostgresPool(opts.databaseUrl, bounds, events).kysely }), log });
    try {
      return await fn(db);
    } finally {
      await db.destroy();
    }
  };
  const jobs = open(opts.postgres?.jobsPoolMax ?? 4);
  jobs.background = jobs;
  requests.background = jobs;
  const closeRequests = requests.close;
  requests.close = async () => {
    await jobs.close();
    await closeRequests();
  };
  return requests;
}

function openSqlite(opts: StoreOptions, log: ((e: LogEvent) => void) | undefined): Store {
  if (opts.sqliteFile !== ':memory:') mkdirSync(path.dirname(opts.sqliteFile), { recursive: true });
  const database = new SQLite(opts.sqliteFile);
  database.pragma('journal_mode = WAL');
  // Durability is not traded for speed, and is set at every open since SQLite's default changes with WAL: either
  // each COMMIT syncs (FULL), or COMMITs only write the log and walSyncer syncs it off the event loop, with nobody
  // answered before that sync (NORMAL + sqlite-group-commit.ts); a crash loses nothing anyone was told of.
  const wal = opts.sqliteFile !== ':memory:' && opts.sqliteSync === 'background' ? (opts.walSyncer ?? walSyncer)(opts.sqliteFile) : null;
  database.pragma(wal ? 'synchronous = NORMAL' : 'synchronous = FULL');
  database.pragma('foreign_keys = ON');
  // Negative: in KiB, not pages. Per connection, and only what is used is allocated.
  database.pragma(`cache_size = ${-1024 * (opts.sqliteCacheMb ?? DEFAULT_SQLITE_CACHE_MB)}`);
  database.pragma('busy_timeout = 5000');
  const checkpointer =
    opts.sqliteFile === ':memory:'
      ? null
      : startCheckpointer(opts.sqliteFile, (err) => {
          opts.onCheckpointerFailure?.(err);
          if (database.open) database.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES}`);
        });
  if (checkpointer) database.pragma(`wal_autocheckpoint = ${MAIN_AUTOCHECKPOINT_PAGES}`);
  const db = new Kysely<Database>({ dialect: new GroupCommitSqliteDialect(database, { syncLog: wal?.sync }), log });
  executors.set(db, { dialect: 'sqlite' });
  const close = async () => {
    await checkpointer?.stop();
    await db.destroy();
    await wal?.close();
  };
  const store: Store = { db, dialect: 'sqlite', transaction: sqliteTransactions(db), background: undefined as unknown as Store, close };
  store.background = store;
  return store;
}

export async function ping(store: Store): Promise<void> {
  await sql`select 1`.execute(store.db);
}

/**
 * Locks the selected rows until the transaction ends. PostgreSQL needs `FOR UPDATE`; on SQLite the
 * transaction already holds the only connection, so the query runs as is.
 */
export function forUpdate<Q extends { forUpdate(): Q }>(store: Pick<Store, 'dialect'>, q: Q): Q {
  return store.dialect === 'postgres' ? q.forUpdate() : q;
}

/**
 * `column IN (rows)` for a statement that writes or deletes the rows a subquery picked (a claim, a purge). On
 * PostgreSQL it is written `= ANY(ARRAY(rows))`: the subquery runs once on its own and the outer statement looks its
 * rows up by key. With `IN`, a table young enough to have no statistics yet gets a plan that hash-joins the subquery
 * against a sequential scan of the whole outer table (test/query-plans.test.ts shows it).
 */
export function inRowsOf(store: Pick<Store, 'dialect'>, column: string, rows: Expression<unknown>): RawBuilder<SqlBool> {
  return store.dialect === 'postgres' ? sql<SqlBool>`${sql.ref(column)} = any(array${rows})` : sql<SqlBool>`${sql.ref(column)} in ${rows}`;
}

/**
 * How long the owner's safety actions wait for a lock (D35): still a bound, a generous one; longer if the settings
 * let an agent's request wait longer (`Store.safetyWaitMs`).
 */
export const SAFETY_LOCK_WAIT_MS = 15_000;

/**
 * D35, D42: the owner's safety actions (pause, resume, cancel) wait for the per-user lock behind every request of
 * that user already queued for it, however many an agent sent; an agent's request gives up after the lock
 * timeout, the owner's stop waits up to SAFETY_LOCK_WAIT_MS. For the rest of the caller's transaction only.
 */
export async function waitLongerForLocks(store: Pick<Store, 'dialect' | 'safetyWaitMs'>, tx: Tx): Promise<void> {
  if (store.dialect !== 'postgres') return;
  const ms = String(store.safetyWaitMs ?? SAFETY_LOCK_WAIT_MS);
  await sql`select set_config('lock_timeout', ${ms}, true), set_config('statement_timeout', ${ms}, true)`.execute(tx);
}

/** Whether an error is a unique-constraint violation, on either store. */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
