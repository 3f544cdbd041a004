import type SQLite from 'better-sqlite3';
import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely';

/*
 * What a statement does is read from SQLite's own account of it (better-sqlite3's `readonly` and `reader`, and
 * whether a transaction is open before and after), never from its text. A statement that writes with no
 * transaction open runs in a batch, so its deferred constraints would be checked at the shared COMMIT and fail the
 * whole batch; the schema declares none (a test in test/query-plans.test.ts keeps it so). What cannot run in a
 * transaction at all (VACUUM, a checkpoint, some pragmas) goes to better-sqlite3 directly, never through Kysely,
 * where a batch may be open.
 */
/** Distinct statements kept prepared; the hot paths use a few dozen, so this only bounds a pathological caller. */
const STATEMENT_CACHE_MAX = 500;

/**
 * The single connection behind the group-commit driver (`sqlite-group-commit.ts`): prepared statements kept per
 * SQL text, the hooks the driver needs before and after writes, and the redo log of the batch that is open.
 */
export class GroupConnection implements DatabaseConnection {
  private readonly cache = new Map<string, SQLite.Statement>();
  /** While a batch is open: its writes so far, in order, with their parameters (see undoUnit). */
  redo: Array<[SQLite.Statement, readonly unknown[]]> | null = null;

  constructor(
    private readonly db: SQLite.Database,
    /** Told when a statement wrote with no transaction open (only when commits do not sync by themselves). */
    private readonly onAutocommit: (() => void) | null,
    /** Told before any write; `lone` for one with no transaction open, which can run in a batch instead. */
    private readonly beforeWrite: (lone: boolean) => void,
  ) {}

  exec(sql: string): void {
    this.prepare(sql).run();
  }

  /** Statements are prepared once per SQL text (Kysely's own driver prepares on every call). */
  private prepare(sql: string): SQLite.Statement {
    let stmt = this.cache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      if (this.cache.size >= STATEMENT_CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(sql, stmt);
    }
    return stmt;
  }

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    const stmt = this.prepare(q.sql);
    if (!stmt.readonly) this.beforeWrite(!this.db.inTransaction);
    const wasInTransaction = this.db.inTransaction;
    const autocommits = this.onAutocommit !== null && !stmt.readonly && !wasInTransaction;
    const result = this.run<R>(stmt, q);
    // Transaction control sent through Kysely (tests send ROLLBACK, to act as SQLite after an I/O error) is never
    // replayed: SQLite counts BEGIN, COMMIT, ROLLBACK and SAVEPOINT as read-only, and a statement that opened or
    // ended a transaction is control whatever SQLite counts it as. (BEGIN IMMEDIATE, counted as a write, would meet
    // the batch its write opened: a transaction is opened through Kysely's own API, never as a statement.)
    const controlsTransaction = wasInTransaction !== this.db.inTransaction;
    if (this.redo && !stmt.readonly && !controlsTransaction) this.redo.push([stmt, q.parameters]);
    if (autocommits) this.onAutocommit!();
    return result;
  }

  /** Runs the writes again, in order; they become the redo log of the batch that now holds them. */
  replay(writes: Array<[SQLite.Statement, readonly unknown[]]>): void {
    for (const [stmt, parameters] of writes) {
      if (stmt.reader) stmt.all(parameters);
      else stmt.run(parameters);
    }
    this.redo = writes;
  }

  private run<R>(stmt: SQLite.Statement, q: CompiledQuery): QueryResult<R> {
    if (stmt.reader) {
      const rows = stmt.all(q.parameters) as R[];
      // A write with RETURNING is a reader too: the rows it returned are the rows it changed.
      return stmt.readonly ? { rows } : { rows, numAffectedRows: BigInt(rows.length) };
    }
    const { changes, lastInsertRowid } = stmt.run(q.parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  async *streamQuery<R>(q: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const stmt = this.prepare(q.sql);
    if (!stmt.reader) throw new Error('SQLite streams queries that return rows only');
    for (const row of stmt.iterate(q.parameters)) yield { rows: [row as R] };
  }
}
