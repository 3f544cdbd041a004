import { CompiledQuery, createQueryId, PostgresAdapter, RawNode, type Compilable, type Kysely } from 'kysely';
import type { Executor } from './database.js';
import { deferMark, READS_MARK, type MarkedRead } from './postgres-client.js';
import type { Database } from './schema.js';

/** Stands where an argument goes when a query is built once; replaced by the argument's value at each call. */
class Slot {
  constructor(readonly key: string) {}
}

const slots = new Proxy({} as Record<string, Slot>, { get: (_t, key) => new Slot(String(key)) });

interface Compiled {
  sql: string;
  parameters: readonly unknown[];
  /** Built once: `CompiledQuery.raw` would build and freeze a new node on every call. */
  node: RawNode;
  /** The table a write changes, when the statement is one (what `defer` needs). */
  writes?: string;
  /** The tables such a write reads (an insert … select). */
  reads: string[];
}

/** A hot statement: built and compiled once per dialect, then run with new arguments and no query building. */
export interface CompiledStatement<A, R> {
  /** Every row. */
  all(db: Executor, args: A): Promise<R[]>;
  /** The first row, if any. */
  first(db: Executor, args: A): Promise<R | undefined>;
  /** Rows changed (insert, update, delete), and the rows a `returning` clause gave. */
  run(db: Executor, args: A): Promise<{ changed: number; rows: R[] }>;
  /**
   * A write whose outcome the caller does not wait on: inside a PostgreSQL transaction it is held and sent with
   * the transaction's other held writes and its next statement or COMMIT, in one round trip
   * (`postgres-client.ts`); elsewhere it runs at once. `onChanged`, if given, is told the rows it changed once
   * the statement that carried it answered (on PostgreSQL that may be the COMMIT itself), and never if that
   * statement failed; it may only schedule work, such as `afterCommit`. Only for a write without `returning`
   * whose failure the caller would not handle (it surfaces at the transaction's next statement instead). A held
   * write that reads or writes a table another held write touches is sent after it, never beside it.
   */
  defer(db: Executor, args: A, onChanged?: (changed: number) => void): Promise<void>;
  /** This read with `args`, described rather than run: for `runRead` and `readTogether`. */
  read<T>(args: A, map: (rows: R[]) => T): Read<T>;
}

/** A read described by the module that owns its table, run by `runRead` alone or by `readTogether` with others. */
export interface Read<T> {
  query(db: Executor): CompiledQuery;
  map(rows: unknown[]): T;
}

export async function runRead<T>(db: Executor, read: Read<T>): Promise<T> {
  return read.map((await db.executeQuery(read.query(db))).rows);
}

type ReadResults<T extends readonly Read<unknown>[]> = { [K in keyof T]: T[K] extends Read<infer U> ? U : never };
const readsNode = RawNode.createWithSql(READS_MARK);

/**
 * Runs reads in the order given and answers each one's result. Inside a PostgreSQL transaction they travel as one
 * round trip, after the transaction's held BEGIN and writes (issue 13); a row lock taken by the first holds for
 * the reads after it, since the server runs them in order. Elsewhere they run one after another, as `runRead`.
 */
export async function readTogether<const T extends readonly Read<unknown>[]>(db: Executor, reads: T): Promise<ReadResults<T>> {
  const queries = reads.map((r) => r.query(db));
  if (db.isTransaction && db.getExecutor().adapter instanceof PostgresAdapter) {
    const parameters: MarkedRead[] = queries.map((q) => ({ text: q.sql, values: q.parameters }));
    const res = await db.executeQuery<unknown[]>({ sql: READS_MARK, query: readsNode, parameters, queryId: createQueryId() });
    return reads.map((r, i) => r.map(res.rows[i]!)) as ReadResults<T>;
  }
  const out: unknown[] = [];
  for (let i = 0; i < reads.length; i++) out.push(reads[i]!.map((await db.executeQuery(queries[i]!)).rows));
  return out as ReadResults<T>;
}

/**
 * A compiled insert of `rows` whole rows of `table` in one statement. `columns` must name every column of the
 * table (the compiler checks it), so a column added later cannot be silently left out of the statement.
 */
export function compiledInsert<T extends keyof Database & string>(
  table: T,
  columns: Record<keyof Database[T], true>,
  opts: {
    /** A unique column whose conflict makes the insert a no-op (`changed` 0) rather than an error. */
    doNothingOnConflict?: keyof Database[T] & string;
    rows?: number;
  } = {},
) {
  const names = Object.keys(columns);
  const count = opts.rows ?? 1;
  const conflict = opts.doNothingOnConflict;
  const stmt = compiled<Record<string, unknown>>((db, a) => {
    const rows = Array.from({ length: count }, (_, i) => Object.fromEntries(names.map((c) => [c, a[`${c}#${i}`]])));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- every column is named, checked above
    const q = db.insertInto(table).values(rows as any);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return conflict ? q.onConflict((oc) => oc.column(conflict as any).doNothing()) : q;
  });
  const keys = Array.from({ length: count }, (_, i) => names.map((c) => `${c}#${i}`));
  const argsOf = (rows: Database[T][]) => {
    if (rows.length !== count) throw new Error(`insert into ${table}: compiled for ${count} rows, given ${rows.length}`);
    const args: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) {
      const row = rows[i] as unknown as Record<string, unknown>;
      const rowKeys = keys[i]!;
      for (let j = 0; j < names.length; j++) args[rowKeys[j]!] = row[names[j]!];
    }
    return args;
  };
  return {
    run: async (db: Executor, ...rows: Database[T][]) => stmt.run(db, argsOf(rows)),
    /** See `CompiledStatement.defer`. */
    defer: async (db: Executor, ...rows: Database[T][]) => stmt.defer(db, argsOf(rows)),
    /** `defer`, told how many rows it inserted once the statement that carried it answered. */
    deferCounted: async (db: Executor, onChanged: (changed: number) => void, ...rows: Database[T][]) => stmt.defer(db, argsOf(rows), onChanged),
  };
}

/**
 * A family of compiled statements whose shape varies with a few plain values (how many items an `in` list has,
 * which columns an update sets): each shape is built and compiled on first use, then reused.
 */
export function compiledByShape<S, A extends object, R = unknown>(
  build: (db: Kysely<Database>, a: A, shape: S) => Compilable<R>,
): (shape: S) => CompiledStatement<A, R> {
  const byShape = new Map<string, CompiledStatement<A, R>>();
  return (shape) => {
    const key = JSON.stringify(shape);
    let stmt = byShape.get(key);
    if (!stmt) {
      stmt = compiled<A, R>((db, a) => build(db, a, shape));
      byShape.set(key, stmt);
    }
    return stmt;
  };
}

/**
 * Kysely builds and compiles a query on every call: a third of a payout's CPU went to building the same ~25
 * statements over and over (issue 13). `compiled` builds a statement once per dialect with placeholders for its
 * arguments (`a.id` in the builder stands for `args.id`), keeps its SQL text — so the store's statement cache
 * hits by identity — and at each call only fills in the values.
 *
 * The builder must have a fixed shape: an argument is one bound value (a list needs one slot per element), and
 * nothing in it may depend on argument values, which it never sees.
 */
export function compiled<A extends object, R = unknown>(
  build: (db: Kysely<Database>, a: A) => Compilable<R>,
): CompiledStatement<A, R> {
  const byDialect = new Map<unknown, Compiled>();
  const prepare = (db: Executor): Compiled => {
    const adapter = db.getExecutor().adapter.constructor;
    let c = byDialect.get(adapter);
    if (!c) {
      const q = build(db, slots as A).compile();
      const writes = /^(?:insert into|update|delete from) "([^"]+)"/.exec(q.sql)?.[1];
      // No literal (quoted or dollar-quoted): it could hold text that looks like a placeholder, and combining held
      // writes renumbers placeholders.
      const rest = q.sql.replace(/\$\d+/g, '');
      const holdable = writes && !rest.includes(' returning ') && !/['$]/.test(rest);
      const reads = [...q.sql.matchAll(/\b(?:from|join) "([^"]+)"/g)].map((m) => m[1]!);
      c = { sql: q.sql, parameters: [...q.parameters], node: RawNode.createWithSql(q.sql), reads, ...(holdable ? { writes } : {}) };
      byDialect.set(adapter, c);
    }
    return c;
  };
  const bind = (c: Compiled, args: A) => {
    const values = args as Record<string, unknown>;
    const out = new Array<unknown>(c.parameters.length);
    for (let i = 0; i < out.length; i++) {
      const p = c.parameters[i];
      out[i] = p instanceof Slot ? (values[p.key] ?? null) : p;
    }
    return out;
  };
  const query = (c: Compiled, args: A): CompiledQuery => ({ sql: c.sql, query: c.node, parameters: bind(c, args), queryId: createQueryId() });
  const exec = (db: Executor, args: A) => db.executeQuery<R>(query(prepare(db), args));
  const changedBy = (res: { numAffectedRows?: bigint }) => {
    // Both stores report it for every write; guessing would, say, take an insert that did nothing for one that
    // moved money, or the reverse.
    if (res.numAffectedRows === undefined) throw new Error('the store did not say how many rows the statement changed');
    return Number(res.numAffectedRows);
  };
  return {
    read: (args, map) => ({ query: (db) => query(prepare(db), args), map: map as (rows: unknown[]) => never }),
    all: async (db, args) => (await exec(db, args)).rows,
    first: async (db, args) => (await exec(db, args)).rows[0],
    run: async (db, args) => {
      const res = await exec(db, args);
      return { changed: changedBy(res), rows: res.rows };
    },
    defer: async (db, args, onChanged) => {
      const c = prepare(db);
      if (!c.writes) throw new Error(`only a write without returning or literals can be deferred: ${c.sql.slice(0, 60)}`);
      if (db.isTransaction && db.getExecutor().adapter instanceof PostgresAdapter) {
        const { mark, forget } = deferMark(c.writes, c.reads, onChanged);
        try {
          await db.executeQuery(CompiledQuery.raw(mark + c.sql, bind(c, args)));
        } finally {
          forget();
        }
        return;
      }
      const changed = changedBy(await db.executeQuery(query(c, args)));
      onChanged?.(changed);
    },
  };
}

/** Lists longer than this go out as several statements. */
const LIST_MAX = 128;

/** A statement over a list of values (`in (…)`), run as one or more compiled statements. */
export interface ListStatement<A, R> {
  all(db: Executor, values: readonly string[], args: A): Promise<R[]>;
  run(db: Executor, values: readonly string[], args: A): Promise<{ changed: number; rows: R[] }>;
}

/**
 * A statement over a list of values, whose builder gets the list as placeholders. It is compiled for lists of 2,
 * 4, 8 … up to LIST_MAX values, a shorter list repeating its last value, so a handful of statements serve every
 * length; a longer list goes out in several statements whose results are joined. An empty list runs nothing.
 */
export function compiledForList<A extends object, R = unknown>(
  build: (db: Kysely<Database>, a: A, list: string[]) => Compilable<R>,
): ListStatement<A, R> {
  const bySize = compiledByShape<number, Record<string, unknown>, R>((db, a, n) =>
    build(db, a as A, Array.from({ length: n }, (_, i) => a[`list${i}`] as string)),
  );
  const each = async (values: readonly string[], args: A, run: (stmt: CompiledStatement<Record<string, unknown>, R>, a: Record<string, unknown>) => Promise<void>) => {
    for (let i = 0; i < values.length; i += LIST_MAX) {
      const chunk = values.slice(i, i + LIST_MAX);
      let n = 2;
      while (n < chunk.length) n *= 2;
      const full: Record<string, unknown> = { ...(args as Record<string, unknown>) };
      for (let j = 0; j < n; j++) full[`list${j}`] = chunk[Math.min(j, chunk.length - 1)];
      await run(bySize(n), full);
    }
  };
  return {
    all: async (db, values, args) => {
      const rows: R[] = [];
      await each(values, args, async (stmt, a) => void rows.push(...(await stmt.all(db, a))));
      return rows;
    },
    run: async (db, values, args) => {
      const out = { changed: 0, rows: [] as R[] };
      await each(values, args, async (stmt, a) => {
        const res = await stmt.run(db, a);
        out.changed += res.changed;
        out.rows.push(...res.rows);
      });
      return out;
    },
  };
}
