import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Distinct statement texts named on PostgreSQL; the hot paths use a few dozen, so this only bounds a pathological caller. */
const STATEMENT_CACHE_MAX = 500;

/**
 * Marks a write the caller does not wait on (see `compiled(…).defer`): the pooled client holds it and sends it
 * with the other held writes of its transaction, as one statement, before the transaction's next statement or
 * its COMMIT. The table follows the marker so that two writes to one table are never sent together.
 */
export const DEFER_MARK = '/*defer:';

/** Callbacks told how many rows a held write changed, by the number its mark carries (`/*defer:table:n*\/`). */
const callbacks = new Map<number, (changed: number) => void>();
let lastCallback = 0;

/**
 * The mark that makes a write held: the table it writes, the tables it reads (an insert … select), and the
 * number of the callback to tell what it changed: `/*defer:table,read1,read2:n*\/`. `forget` drops the
 * callback once the statement has reached the client (which keeps it with the held write) or failed before.
 */
export function deferMark(table: string, reads: readonly string[], onChanged?: (changed: number) => void): { mark: string; forget(): void } {
  const tables = [table, ...reads].join(',');
  if (!onChanged) return { mark: `${DEFER_MARK}${tables}*/ `, forget: () => undefined };
  const n = ++lastCallback;
  callbacks.set(n, onChanged);
  return { mark: `${DEFER_MARK}${tables}:${n}*/ `, forget: () => callbacks.delete(n) };
}

/** The statement without its mark (what the store's observer and the statement names see). */
export function unmarked(text: string): string {
  return text.startsWith(DEFER_MARK) ? text.slice(text.indexOf('*/') + 2).trimStart() : text;
}

interface HeldWrite {
  table: string;
  reads: string[];
  sql: string;
  values: unknown[];
  onChanged?: (changed: number) => void;
}

type Query = (config: { name?: string; text: string; values?: unknown[] }) => Promise<pg.QueryResult>;

/**
 * Wraps the pool's clients for two things node-postgres does not do by itself.
 *
 * Named statements: PostgreSQL parses and plans every unnamed statement. Naming a statement by its text's hash
 * makes each pooled connection prepare it once and reuse it. Only the first STATEMENT_CACHE_MAX texts get
 * names, so a caller that builds many distinct texts cannot grow the server's per-connection cache without bound.
 *
 * Held writes (issue 13): node-postgres waits for each statement's answer before it sends the next, so every
 * statement is a round trip, and a payout's pure inserts (its audit row, event, pending delivery, history row)
 * were a third of them. Writes marked with DEFER_MARK are held on the client and sent together as one statement
 * of data-modifying CTEs just before anything else runs on that client, COMMIT included; ROLLBACK drops them.
 * Because they are flushed before every other statement, the transaction reads what it wrote exactly as before;
 * what changes is only when an error of a held write surfaces (at the next statement or the COMMIT, which then
 * fails, so the transaction still rolls back as a whole). Sibling CTEs share one snapshot and cannot see each
 * other's rows, so a write that writes or reads a table a held write writes (or reads, for a write) first
 * flushes the held ones. Any other
 * statement (a savepoint command too) flushes first, so it runs after everything the transaction wrote.
 */
export function wrapPool(pool: pg.Pool): pg.Pool {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (!name && names.size < STATEMENT_CACHE_MAX) {
      name = `k${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      names.set(text, name);
    }
    return name;
  };

  const wrap = (client: pg.PoolClient): pg.PoolClient => {
    if ((client as { __wrapped?: boolean }).__wrapped) return client;
    const raw = client.query.bind(client) as unknown as Query;
    const send = (text: string, values: unknown[]) => {
      const name = values.length > 0 ? nameOf(text) : undefined;
      return name ? raw({ name, text, values }) : raw({ text, values });
    };
    let held: HeldWrite[] = [];

    const flush = async (): Promise<void> => {
      const writes = held;
      held = [];
      if (writes.length === 1) {
        const w = writes[0]!;
        const res = await send(w.sql, w.values);
        w.onChanged?.(res.rowCount ?? 0);
        return;
      }
      const { text, values } = combine(writes);
      const res = await send(text, values);
      const counts = res.rows[0] as Record<string, number>;
      writes.forEach((w, i) => w.onChanged?.(Number(counts[`c${i}`])));
    };

    (client as unknown as { query: unknown }).query = async (text: unknown, values?: unknown) => {
      if (typeof text !== 'string') return raw(text as never);
      const params = Array.isArray(values) ? values : [];
      if (text.startsWith(DEFER_MARK)) {
        const [tables, n] = text.slice(DEFER_MARK.length, text.indexOf('*/')).split(':') as [string, string?];
        const [table, ...reads] = tables.split(',') as [string, ...string[]];
        const onChanged = n ? callbacks.get(Number(n)) : undefined;
        // Sibling CTEs would not see each other's rows: a write to, or a read of, a table a held write touches
        // goes out only after it.
        if (held.some((w) => w.table === table || w.reads.includes(table) || reads.includes(w.table))) await flush();
        held.push({ table, reads, sql: unmarked(text), values: params, onChanged });
        return { command: 'DEFERRED', rowCount: null, rows: [], fields: [], oid: 0 };
      }
      if (text === 'rollback') held = [];
      else if (held.length > 0) await flush();
      return send(text, params);
    };
    (client as { __wrapped?: boolean }).__wrapped = true;
    return client;
  };
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  (pool as unknown as { connect: unknown }).connect = async () => wrap(await connect());
  return pool;
}

/** `with w0 as (… returning 1), w1 as (…) select count(*) …`: every write runs, and each one's count comes back. */
function combine(writes: HeldWrite[]): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const ctes = writes.map((w, i) => {
    const offset = values.length;
    values.push(...w.values);
    // Only placeholders are renumbered: held writes are compiled statements, which bind every value.
    const body = offset === 0 ? w.sql : w.sql.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + offset}`);
    return `w${i} as (${body} returning 1)`;
  });
  const counts = writes.map((_w, i) => `(select count(*) from w${i})::int as c${i}`);
  return { text: `with ${ctes.join(', ')} select ${counts.join(', ')}`, values };
}
