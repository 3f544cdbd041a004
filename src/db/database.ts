import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, type Expression, type LogEvent, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import pg from 'pg';
import { DEFAULT_DATABASE_POOL_MAX, DEFAULT_SQLITE_CACHE_MB } from '../config.js';
import type { Database } from './schema.js';
import { backgroundFace, READS_MARK, unmarked, wrapPool, type MarkedRead } from './postgres-client.js';
import { MAIN_AUTOCHECKPOINT_PAGES, SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES, startCheckpointer } from './sqlite-checkpointer.js';
import { walSyncer } from './sqlite-wal-sync.js';
import { GroupCommitSqliteDialect } from './sqlite-group-commit.js';
import { sharedTransactions, unshared, type SharedTransactionRunner } from './shared-transaction.js';

export type Dialect = 'sqlite' | 'postgres';

/** Sees every statement the store runs (tests check each one's query plan). */
export type QueryObserver = (sql: string, parameters: readonly unknown[], durationMs: number) => void;

const observe = (onQuery: QueryObserver) => (event: LogEvent) => {
  if (event.level !== 'query') return;
  // Reads sent together: each is seen as a statement of its own, sharing the round trip's time.
  if (event.query.sql === READS_MARK) {
    const reads = event.query.parameters as MarkedRead[];
    for (const r of reads) onQuery(r.text, r.values, event.queryDurationMillis / reads.length);
    return;
  }
  onQuery(unmarked(event.query.sql), event.query.parameters, event.queryDurationMillis);
};

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /**
   * Runs `fn` in one transaction, then the callbacks that `afterCommit` registered on it (never on rollback).
   * Use it for every transaction that records events, so workers are woken only once the work is visible.
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * `transaction` for short transactions that many requests run at once and that may share one physical
   * transaction with each other on PostgreSQL (`shared-transaction.ts`): those of one `lane` (one kind of step)
   * share with each other, never with another lane's. On SQLite, whose group commit already shares commits,
   * each lane is `transaction`.
   */
  shared(lane: string): SharedTransactionRunner;
  /**
   * The same store for the background jobs, which finish work already accepted: on PostgreSQL its checkouts are
   * served before the requests waiting for a connection (`backgroundFace`); on SQLite, with one connection and
   * no queue, it is this store.
   */
  background: Store;
  close(): Promise<void>;
}

export type Tx = Transaction<Database>;
export type Executor = Kysely<Database> | Tx;

const commitHooks = new WeakMap<object, Array<() => void>>();

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
  commitHooks.get(db)?.push(cb);
}

function transactionRunner(db: Kysely<Database>) {
  return async <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => {
    let hooks: Array<() => void> = [];
    const result = await db.transaction().execute(async (tx) => {
      hooks = [];
      commitHooks.set(tx, hooks);
      return fn(tx);
    });
    // Committed: a hook only wakes a worker, and one that throws must not turn the commit into a failure.
    for (const h of hooks) {
      try {
        h();
      } catch (err) {
        process.emitWarning(`an after-commit callback threw: ${String(err)}`);
      }
    }
    return result;
  };
}

/**
 * How long a statement in a shared transaction waits for a row lock before it fails the shared transaction,
 * whose members then run again, each alone (and without this limit). Members take their locks in one order and
 * hold them for a few milliseconds; a wait this long means a lock held elsewhere, which only its member's caller
 * should wait for.
 */
export const SHARED_LOCK_TIMEOUT_MS = 1000;
const sharedBegin = (tx: Tx) => sql.raw(`set local lock_timeout = ${SHARED_LOCK_TIMEOUT_MS}`).execute(tx);

/** One shared-transaction runner per lane name, made when first asked for. */
function lanes(run: ReturnType<typeof transactionRunner>): (lane: string) => SharedTransactionRunner {
  const byName = new Map<string, SharedTransactionRunner>();
  return (lane) => {
    let runner = byName.get(lane);
    if (!runner) byName.set(lane, (runner = sharedTransactions(run, { begin: sharedBegin })));
    return runner;
  };
}

/**
 * Every statement the service runs is served by an index, and test/query-plans.test.ts holds it to that with
 * sequential scans disabled, which is how the service's own sessions run too. PostgreSQL keeps a prepared
 * statement's generic plan until the table's statistics change; one made while a table was a page or two chose a
 * sequential scan, and kept it as the table grew, until autovacuum's next ANALYZE (in the bench, never: every
 * follow-up pass read every payout ever made). Disabled, a scan is only chosen where no index can serve, which
 * that test forbids on a growing table. JIT is off because such a plan's cost (the disabled scan counts as 10^10)
 * would compile it, and no statement here is large enough to gain from compiling. Sent as a statement on each new
 * connection rather than as startup options, so the URL, PGOPTIONS and a pooler in front are left as they are.
 */
const SESSION_SETTINGS = 'set enable_seqscan = off; set jit = off';

/**
 * Opens the store chosen by config (D1, D3): PostgreSQL when a URL is given, else SQLite at `sqliteFile`
 * (`:memory:` allowed). SQLite runs through one connection, so a transaction there is exclusive, and concurrent
 * transactions share their commits (`sqlite-group-commit.ts`); on PostgreSQL concurrency is handled with row
 * locks and conditional updates (see `forUpdate`).
 */
export function openStore(opts: {
  databaseUrl: string;
  sqliteFile: string;
  /** See Config.databasePoolMax; DEFAULT_DATABASE_POOL_MAX unless told. */
  poolMax?: number;
  /** See Config.sqliteSync; `inline` unless told. */
  sqliteSync?: 'background' | 'inline';
  /** See Config.sqliteCacheMb; DEFAULT_SQLITE_CACHE_MB unless told. */
  sqliteCacheMb?: number;
  onQuery?: QueryObserver;
  /** SQLite: the checkpoint worker failed; the main connection checkpoints at SQLite's usual size again. */
  onCheckpointerFailure?: (err: unknown) => void;
  /** PostgreSQL: an idle pooled connection was lost (a server restart, an administrator); the pool opens another. */
  onIdleConnectionLost?: (err: unknown) => void;
  /** PostgreSQL: SESSION_SETTINGS failed on a new connection, which then plans as the server's defaults say. */
  onSessionSettingsFailed?: (err: unknown) => void;
}): Store {
  const log = opts.onQuery ? observe(opts.onQuery) : undefined;
  if (opts.databaseUrl) {
    // int8 columns hold centavos and counters, always far below 2^53: return them as numbers.
    const types = {
      getTypeParser: (oid: number, format?: 'text' | 'binary') =>
        oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format),
    };
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolMax ?? DEFAULT_DATABASE_POOL_MAX, types });
    // The pool drops the connection and opens a new one when next needed; without a listener the 'error' event
    // would end the process.
    pool.on('error', (err) => opts.onIdleConnectionLost?.(err));
    // Queued on the client before the pool hands it to anyone, so it runs before their statements.
    pool.on('connect', (client) => void client.query(SESSION_SETTINGS).catch((err: unknown) => opts.onSessionSettingsFailed?.(err)));
    const wrapped = wrapPool(pool);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: wrapped }), log });
    const jobsDb = new Kysely<Database>({ dialect: new PostgresDialect({ pool: backgroundFace(wrapped) }), log });
    const close = async () => {
      await jobsDb.destroy();
      await db.destroy();
    };
    const jobsRun = transactionRunner(jobsDb);
    const background: Store = { db: jobsDb, dialect: 'postgres', transaction: jobsRun, shared: lanes(jobsRun), close, get background() { return background; } };
    const run = transactionRunner(db);
    return { db, dialect: 'postgres', transaction: run, shared: lanes(run), background, close };
  }
  if (opts.sqliteFile !== ':memory:') mkdirSync(path.dirname(opts.sqliteFile), { recursive: true });
  const database = new SQLite(opts.sqliteFile);
  database.pragma('journal_mode = WAL');
  // Durability is not traded for speed, and is set at every open since SQLite's default changes with WAL: either
  // each COMMIT syncs (FULL), or COMMITs only write the log and walSyncer syncs it off the event loop, with nobody
  // answered before that sync (NORMAL + sqlite-group-commit.ts); a crash loses nothing anyone was told of.
  const wal = opts.sqliteFile !== ':memory:' && opts.sqliteSync === 'background' ? walSyncer(opts.sqliteFile) : null;
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
  const close = async () => {
    await checkpointer?.stop();
    await db.destroy();
    await wal?.close();
  };
  const run = transactionRunner(db);
  const alone = unshared(run);
  const store: Store = { db, dialect: 'sqlite', transaction: run, shared: () => alone, close, get background() { return store; } };
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
 * PostgreSQL it is written `= ANY(ARRAY(rows))`: the subquery then runs once on its own and the outer statement
 * looks its rows up by key. With `IN`, a prepared statement's generic plan may hash-join the subquery against a
 * sequential scan of the whole outer table; on a table still young enough to have no statistics it did, and
 * every follow-up pass read every payout ever made (issue 13).
 */
export function inRowsOf(store: Pick<Store, 'dialect'>, column: string, rows: Expression<unknown>): RawBuilder<SqlBool> {
  return store.dialect === 'postgres' ? sql<SqlBool>`${sql.ref(column)} = any(array${rows})` : sql<SqlBool>`${sql.ref(column)} in ${rows}`;
}

/** Whether an error is a unique-constraint violation, on either store. */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
