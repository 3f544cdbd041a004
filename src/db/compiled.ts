import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import { dialectOf, type Executor } from './database.js';
import { reusePlanOf } from './postgres.js';
import type { Database } from './schema.js';

/** Stands where an argument goes when a query is built once; replaced by the argument's value at each call. */
class Slot {
  constructor(readonly key: string) {}
}

const slots = new Proxy({} as Record<string, Slot>, { get: (_t, key) => new Slot(String(key)) });

interface Compiled {
  sql: string;
  parameters: readonly unknown[];
}

/** A hot statement: built and compiled once per dialect, then run with new arguments and no query building. */
export interface CompiledStatement<A, R> {
  /** Every row. */
  all(db: Executor, args: A): Promise<R[]>;
  /** The first row, if any. */
  first(db: Executor, args: A): Promise<R | undefined>;
  /** Rows changed (insert, update, delete), and the rows a `returning` clause gave. */
  run(db: Executor, args: A): Promise<{ changed: number; rows: R[] }>;
}

export interface CompiledOptions {
  /**
   * D42: on PostgreSQL a compiled statement is prepared once per connection and its plan may be reused (after five
   * runs PostgreSQL may keep a generic plan, made once for any values, until the table's statistics change). That
   * is right for a lookup or write by key, whose plan is an index whatever the table's size; `test/query-plans`
   * proves it for every such statement with the generic plan made on young tables. A statement whose best plan
   * depends on its values or on the table's size at the time (a claim over a due index, a list) says
   * `planEachTime`: it is sent unnamed and planned for its values at every run.
   */
  planEachTime?: boolean;
}

/**
 * Kysely builds and compiles a query on every call; on the payout path that was a third of the CPU a payout
 * cost. `compiled` builds a statement once per dialect with placeholders for its arguments (`a.id` in the builder
 * stands for `args.id`) and at each call only fills in the values. The statement then runs as any other, through
 * `executeQuery` on the executor it is given.
 *
 * The builder must have a fixed shape: an argument is one bound value (a list needs one slot per element), and
 * nothing in it may depend on argument values, which it never sees. An executor the store did not hand out (see
 * `dialectOf`) gets its statement built on every call instead: slower, never wrong.
 */
export function compiled<A extends object, R = unknown>(build: (db: Kysely<Database>, a: A) => Compilable<R>, opts: CompiledOptions = {}): CompiledStatement<A, R> {
  const byDialect = new Map<string, Compiled>();
  const compile = (db: Executor): Compiled => {
    const q = build(db, slots as A).compile();
    if (!opts.planEachTime && dialectOf(db) === 'postgres') reusePlanOf(q.sql);
    return { sql: q.sql, parameters: q.parameters };
  };
  const prepare = (db: Executor): Compiled => {
    const dialect = dialectOf(db);
    if (!dialect) return compile(db);
    let c = byDialect.get(dialect);
    if (!c) byDialect.set(dialect, (c = compile(db)));
    return c;
  };
  const exec = (db: Executor, args: A) => {
    const c = prepare(db);
    const values = args as Record<string, unknown>;
    const parameters = c.parameters.map((p) => (p instanceof Slot ? (values[p.key] ?? null) : p));
    return db.executeQuery<R>(CompiledQuery.raw(c.sql, parameters));
  };
  return {
    all: async (db, args) => (await exec(db, args)).rows,
    first: async (db, args) => (await exec(db, args)).rows[0],
    run: async (db, args) => {
      const res = await exec(db, args);
      // Both stores report it for every write; guessing would, say, take an insert that did nothing for one that
      // moved money, or the reverse.
      if (res.numAffectedRows === undefined) throw new Error('the store did not say how many rows the statement changed');
      return { changed: Number(res.numAffectedRows), rows: res.rows };
    },
  };
}

/**
 * A family of compiled statements whose shape varies with a few plain values (how many items an `in` list has,
 * which columns an update sets): each shape is built and compiled on first use, then reused.
 */
export function compiledByShape<S, A extends object, R = unknown>(
  build: (db: Kysely<Database>, a: A, shape: S) => Compilable<R>,
  opts: CompiledOptions = {},
): (shape: S) => CompiledStatement<A, R> {
  const byShape = new Map<string, CompiledStatement<A, R>>();
  return (shape) => {
    const key = JSON.stringify(shape);
    let stmt = byShape.get(key);
    if (!stmt) byShape.set(key, (stmt = compiled<A, R>((db, a) => build(db, a, shape), opts)));
    return stmt;
  };
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
  return {
    run: async (db: Executor, ...rows: Database[T][]) => {
      if (rows.length !== count) throw new Error(`insert into ${table}: compiled for ${count} rows, given ${rows.length}`);
      const args: Record<string, unknown> = {};
      rows.forEach((row, i) => {
        for (const c of names) args[`${c}#${i}`] = (row as unknown as Record<string, unknown>)[c];
      });
      return stmt.run(db, args);
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
  // A list's generic plan, made while the table was small, may read all of it (the query-plans test shows it).
  const bySize = compiledByShape<number, Record<string, unknown>, R>(
    (db, a, n) => build(db, a as A, Array.from({ length: n }, (_, i) => a[`list${i}`] as string)),
    { planEachTime: true },
  );
  /** Runs the statement once per chunk of at most LIST_MAX values, with `each` called on each statement. */
  const chunks = async (values: readonly string[], args: A, each: (stmt: CompiledStatement<Record<string, unknown>, R>, a: Record<string, unknown>) => Promise<void>) => {
    for (let i = 0; i < values.length; i += LIST_MAX) {
      const chunk = values.slice(i, i + LIST_MAX);
      let n = 2;
      while (n < chunk.length) n *= 2;
      const full: Record<string, unknown> = { ...(args as Record<string, unknown>) };
      for (let j = 0; j < n; j++) full[`list${j}`] = chunk[Math.min(j, chunk.length - 1)];
      await each(bySize(n), full);
    }
  };
  return {
    all: async (db, values, args) => {
      const rows: R[] = [];
      await chunks(values, args, async (stmt, a) => void rows.push(...(await stmt.all(db, a))));
      return rows;
    },
    run: async (db, values, args) => {
      const out = { changed: 0, rows: [] as R[] };
      await chunks(values, args, async (stmt, a) => {
        const res = await stmt.run(db, a);
        out.changed += res.changed;
        out.rows.push(...res.rows);
      });
      return out;
    },
  };
}
