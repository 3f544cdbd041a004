import { createHash } from 'node:crypto';
import type pg from 'pg';
import { runBatch, wasNotSent, type BatchItem } from './postgres-batch.js';
import { isSharedRead, ReadPipeline } from './postgres-pipeline.js';

/** Distinct statement texts named on PostgreSQL; the hot paths use a few dozen, so this only bounds a pathological caller. */
const STATEMENT_CACHE_MAX = 500;

/**
 * Marks a write the caller does not wait on (see `compiled(…).defer`): the pooled client holds it and sends it
 * with the other held writes of its transaction, as one statement, before the transaction's next statement or
 * its COMMIT. The table follows the marker so that two writes to one table are never sent together.
 */
export const DEFER_MARK = '/*defer:';

/**
 * The text of a statement that stands for several reads (see `readTogether` in `compiled.ts`): its values are
 * the reads, `{ text, values }` each, and its rows are each read's rows, in order. Inside a transaction they go
 * as one batch, after what is held; elsewhere one by one.
 */
export const READS_MARK = '/*reads*/';
export interface MarkedRead {
  text: string;
  values: readonly unknown[];
}

/** A setting for the rest of the transaction, one name and one plain value: safe to send as a batch item. */
const SET_LOCAL = /^set local [a-z_]+ = [0-9a-z_]+$/;

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

/** What a held statement is told once the batch that carried it answered. */
type Tell = (r: { rowCount: number | null; rows: unknown[] }) => void;

type Query = (config: { name?: string; text: string; values?: unknown[] }) => Promise<pg.QueryResult>;

/**
 * Wraps the pool's clients for what node-postgres does not do by itself: each statement it sends is a round trip
 * (a send, a wake-up and a receive on each side, and a wait while the transaction holds its locks; issue 13).
 *
 * Named statements: PostgreSQL parses and plans every unnamed statement. Naming a statement by its text's hash
 * makes each pooled connection prepare it once and reuse it. Only the first STATEMENT_CACHE_MAX texts get
 * names, so a caller that builds many distinct texts cannot grow the server's per-connection cache without bound.
 *
 * Held writes: writes marked with DEFER_MARK (a payout's audit row, event, pending delivery, history row…) are
 * held on the client and sent with the transaction's next statement, COMMIT included; ROLLBACK drops them.
 * Held writes that do not touch each other's tables go as one statement of data-modifying CTEs; sibling CTEs
 * share one snapshot and cannot see each other's rows, so a write that writes or reads a table a held write
 * writes (or reads, for a write) starts the next statement instead. The transaction reads what it wrote exactly
 * as before; only an error of a held write surfaces later, at the next statement or the COMMIT, which then
 * fails, so the transaction still rolls back as a whole.
 *
 * Held BEGIN: Kysely's `begin` is answered at once and sent with the transaction's first statement, and so is a
 * `set local` right after it; a transaction that sent nothing is committed or rolled back without a word to the
 * server.
 *
 * What is held goes out with the next statement as one batch (`postgres-batch.ts`): one write, one answer.
 * A statement without values that may hold several commands (a migration's script) cannot be batched; what is
 * held then goes first, on its own.
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
  const itemOf = (text: string, values: unknown[]): BatchItem => {
    const name = values.length > 0 ? nameOf(text) : undefined;
    return name ? { text, values, name } : { text, values };
  };
  const pipeline = new ReadPipeline();

  const wrap = (client: pg.PoolClient): pg.PoolClient => {
    if (held.has(client)) return client;
    const raw = client.query.bind(client) as unknown as Query;
    const batch = (items: BatchItem[]) => runBatch(client, raw as (q: unknown) => unknown, items);
    // A named statement goes as a batch of one: it skips the Describe once the statement's columns are known on
    // this connection, and closes a name whose Parse is in doubt before preparing it again.
    const send = async (text: string, values: unknown[]): Promise<pg.QueryResult> => {
      const it = itemOf(text, values);
      return it.name ? ((await batch([it]))[0] as unknown as pg.QueryResult) : raw({ text, values });
    };
    let beginHeld = false;
    /** `set local` statements sent right after the held BEGIN, with it. */
    let settingsHeld: string[] = [];
    /** Between a BEGIN (held or sent) and its COMMIT or ROLLBACK: where statements may share a batch. */
    let inTransaction = false;
    /** Held writes in the order they must run; the writes of one group run together as one statement. */
    let groups: HeldWrite[][] = [];
    const dropHeld = () => {
      beginHeld = false;
      settingsHeld = [];
      groups = [];
    };

    /** What is held, as statements to run before the next one, and what to tell the held writes once they ran. */
    const takeHeld = () => {
      const items: BatchItem[] = beginHeld ? [{ text: 'begin', values: [] }] : [];
      for (const text of settingsHeld) items.push({ text, values: [] });
      const tell: Tell[] = items.map(() => () => undefined);
      for (const writes of groups) {
        if (writes.length === 1) {
          const w = writes[0]!;
          items.push(itemOf(w.sql, w.values));
          tell.push((r) => w.onChanged?.(r.rowCount ?? 0));
        } else {
          const { text, values } = combine(writes);
          items.push(itemOf(text, values));
          tell.push((r) => {
            const counts = r.rows[0] as Record<string, number>;
            writes.forEach((w, i) => w.onChanged?.(Number(counts[`c${i}`])));
          });
        }
      }
      const restore = { beginHeld, settingsHeld, groups };
      dropHeld();
      return { items, tell, restore };
    };
    /**
     * After a batch was refused before a byte was written (a value that cannot be encoded): the BEGIN and held
     * writes it carried are still to be sent, before anything held since, or a caller that goes on would run the
     * rest of its transaction without a BEGIN, or commit without them.
     */
    const putBack = (err: unknown, restore: { beginHeld: boolean; settingsHeld: string[]; groups: HeldWrite[][] }) => {
      if (!wasNotSent(err)) return;
      beginHeld ||= restore.beginHeld;
      settingsHeld = [...restore.settingsHeld, ...settingsHeld];
      groups = [...restore.groups, ...groups];
    };

    /** Sends `text` with everything held before it, in one batch when it can be batched. */
    const sendAfterHeld = async (text: string, values: unknown[]): Promise<pg.QueryResult> => {
      const { items, tell, restore } = takeHeld();
      if (items.length === 0) return send(text, values);
      // Without values a text may hold several commands, which one Parse cannot take; with a `;` it might.
      const single = values.length > 0 || !text.includes(';');
      let results;
      try {
        results = await batch(single ? [...items, itemOf(text, values)] : items);
      } catch (err) {
        putBack(err, restore);
        throw err;
      }
      tellAll(tell, results);
      return single ? (results[items.length] as unknown as pg.QueryResult) : send(text, values);
    };

    /**
     * Reads the caller sends together: inside a transaction, one batch after what is held, run in the order given
     * (a row lock first holds for the reads after it); an error in one fails it and every later one, as it aborts
     * the transaction anyway. Outside a transaction each read commits on its own, so they go one by one.
     */
    const readTogether = async (reads: MarkedRead[]): Promise<unknown[][]> => {
      for (const r of reads) {
        if (r.values.length === 0 && r.text.includes(';')) throw new Error('a read sent together must be one statement');
      }
      if (!inTransaction) {
        const out: unknown[][] = [];
        for (const r of reads) out.push((await sendAfterHeld(r.text, [...r.values])).rows);
        return out;
      }
      const { items, tell, restore } = takeHeld();
      let results;
      try {
        results = await batch([...items, ...reads.map((r) => itemOf(r.text, [...r.values]))]);
      } catch (err) {
        putBack(err, restore);
        throw err;
      }
      tellAll(tell, results);
      return results.slice(items.length).map((r) => r.rows);
    };

    const answer = (command: string) => ({ command, rowCount: null, rows: [], fields: [], oid: 0 });

    const query = async (text: string, values?: unknown): Promise<unknown> => {
      const params = Array.isArray(values) ? values : [];
      if (text.startsWith(DEFER_MARK)) {
        const [tables, n] = text.slice(DEFER_MARK.length, text.indexOf('*/')).split(':') as [string, string?];
        const [table, ...reads] = tables.split(',') as [string, ...string[]];
        const onChanged = n ? callbacks.get(Number(n)) : undefined;
        const write: HeldWrite = { table, reads, sql: unmarked(text), values: params, onChanged };
        // Sibling CTEs would not see each other's rows: a write to, or a read of, a table a held write touches
        // runs as the next statement, after them.
        const last = groups[groups.length - 1];
        if (last && !last.some((w) => w.table === table || w.reads.includes(table) || reads.includes(w.table))) last.push(write);
        else groups.push([write]);
        return answer('DEFERRED');
      }
      if (text === READS_MARK) return { ...answer('SELECT'), rows: await readTogether(params as MarkedRead[]) };
      if (params.length === 0) {
        if (text === 'begin') inTransaction = true;
        else if (text === 'commit' || text === 'rollback') inTransaction = false;
        if (text === 'begin' && !beginHeld && groups.length === 0) {
          beginHeld = true;
          return answer('BEGIN');
        }
        // A setting for the transaction just begun travels with its BEGIN.
        if (beginHeld && groups.length === 0 && SET_LOCAL.test(text)) {
          settingsHeld.push(text);
          return answer('SET');
        }
        // Nothing was sent since BEGIN: there is nothing to commit or roll back on the server.
        if (beginHeld && (text === 'rollback' || (text === 'commit' && groups.length === 0))) {
          dropHeld();
          return answer(text.toUpperCase());
        }
        if (text === 'rollback') dropHeld();
      }
      if (!inTransaction && !beginHeld && groups.length === 0 && params.length > 0 && isSharedRead(text)) {
        return pipeline.read(batch, itemOf(text, params));
      }
      return sendAfterHeld(text, params);
    };
    // `pool.query` calls back rather than awaiting; Kysely awaits. A query object (a cursor) goes to the client
    // as it is, answered the client's way.
    (client as unknown as { query: unknown }).query = (text: unknown, values?: unknown, cb?: unknown) => {
      if (typeof text !== 'string') {
        // What is held goes first: node-postgres runs its queue in order. A held write's error then surfaces as
        // the query object's (the transaction is aborted), as it would at any next statement; a batch refused
        // before it was sent is kept, so that the transaction's next statement or COMMIT fails on it instead.
        const { items, tell, restore } = takeHeld();
        if (items.length > 0) {
          batch(items).then(
            (results) => tellAll(tell, results),
            (err: unknown) => putBack(err, restore),
          );
        }
        return (raw as unknown as (...a: unknown[]) => unknown)(text, values, cb);
      }
      const done = typeof values === 'function' ? values : cb;
      const p = query(text, typeof values === 'function' ? undefined : values);
      if (typeof done !== 'function') return p;
      answerLater(p, done as (err: unknown, r?: unknown) => void);
      return undefined;
    };
    const onRelease = () => {
      dropHeld();
      inTransaction = false;
    };
    held.set(client, { dirty: () => beginHeld || settingsHeld.length > 0 || groups.length > 0 || inTransaction, drop: onRelease });
    return client;
  };
  /** Each wrapped client's held state; a client is wrapped once, when the pool first hands it out. */
  const held = new WeakMap<pg.PoolClient, { dirty(): boolean; drop(): void }>();
  // A client must never go back to the pool with a BEGIN or writes held, or inside a transaction (Kysely always
  // commits or rolls back first): the next user would run them, or run inside the transaction. The pool sets
  // `release` at each checkout.
  const guardRelease = (client: pg.PoolClient, done: () => void): pg.PoolClient => {
    const release = client.release.bind(client);
    let given = false;
    client.release = (err?: Error | boolean) => {
      const state = held.get(client);
      const dirty = state?.dirty() ?? false;
      state?.drop();
      try {
        return release(dirty ? new Error('released inside a transaction or with statements held') : err);
      } finally {
        // Once per checkout, even if a second release throws: the line must not admit one more than the pool holds.
        if (!given) {
          given = true;
          done();
        }
      }
    };
    return client;
  };
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  // node-postgres's own size, defaults included, which it sets on `options` when the pool is made.
  const line = new CheckoutLine(pool.options.max!);
  const connectWrapped = async (first: boolean) => {
    await line.take(first);
    let client: pg.PoolClient;
    try {
      client = await connect();
    } catch (err) {
      line.give();
      throw err;
    }
    return guardRelease(wrap(client), () => line.give());
  };
  const connectWith = (first: boolean) => (cb?: (err: unknown, client?: pg.PoolClient, release?: unknown) => void) => {
    if (!cb) return connectWrapped(first);
    answerLater(connectWrapped(first), (err, c) => (c ? cb(null, c, c.release) : cb(err)));
    return undefined;
  };
  (pool as unknown as { connect: unknown }).connect = connectWith(false);
  // Ended through the pool itself, by whoever owns it.
  firstInLine.set(pool, { connect: connectWith(true), end: async () => undefined } as unknown as pg.Pool);
  return pool;
}

/** Each wrapped pool's second face: the same connections, its checkouts served before the pool's own. */
const firstInLine = new WeakMap<pg.Pool, pg.Pool>();

/**
 * The same pool for work that finishes what was already accepted (the background jobs: confirmations, webhook
 * deliveries, expiries): when every connection is busy, its checkouts are served before the requests waiting.
 * Under a load of new payouts they would otherwise wait behind every request queued for a connection, and the
 * payouts already made wait longer and longer for their confirmation (issue 13). Only for a pool `wrapPool`
 * returned; ending it does nothing (end the pool itself).
 */
export function backgroundFace(pool: pg.Pool): pg.Pool {
  const face = firstInLine.get(pool);
  if (!face) throw new Error('backgroundFace: not a pool from wrapPool');
  return face;
}

/**
 * Who gets a connection once all of the pool's are checked out: background work first, then in order of asking.
 * It admits at most the pool's size, so node-postgres's own queue (first come, first served) never fills.
 */
class CheckoutLine {
  private readonly first: Array<() => void> = [];
  private readonly rest: Array<() => void> = [];

  constructor(private free: number) {}

  take(first: boolean): Promise<void> | void {
    if (this.free > 0) {
      this.free--;
      return;
    }
    return new Promise((resolve) => (first ? this.first : this.rest).push(resolve));
  }

  /** A checkout ended (or never happened): its place goes to the next in line, or back to the pool. */
  give(): void {
    const next = this.first.shift() ?? this.rest.shift();
    if (next) next();
    else this.free++;
  }
}

/**
 * Tells held writes what they changed once the batch that carried them answered (with a COMMIT, say). A callback
 * only schedules work (`afterCommit`); one that throws must not turn a COMMIT that happened into a failure.
 */
function tellAll(tell: Tell[], results: ReadonlyArray<Parameters<Tell>[0]>): void {
  tell.forEach((t, i) => {
    try {
      t(results[i]!);
    } catch (err) {
      process.emitWarning(`a held write's callback threw: ${String(err)}`);
    }
  });
}

/** Calls `cb` with what `p` gives, outside the promise's chain, so that a throwing callback is not swallowed. */
function answerLater<T>(p: Promise<T>, cb: (err: unknown, r?: T) => void): void {
  p.then(
    (r) => process.nextTick(cb, null, r),
    (e: unknown) => process.nextTick(cb, e),
  );
}

/** `with w0 as (… returning 1), w1 as (…) select count(*) …`: every write runs, and each one's count comes back. */
function combine(writes: HeldWrite[]): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  let key = '';
  for (const w of writes) {
    key += `${w.values.length}\u0000${w.sql}\u0000`;
    for (const v of w.values) values.push(v);
  }
  let text = combinedTexts.get(key);
  if (text === undefined) {
    let offset = 0;
    const ctes = writes.map((w, i) => {
      // Only placeholders are renumbered: held writes are compiled statements, which bind every value.
      const at = offset;
      const body = at === 0 ? w.sql : w.sql.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + at}`);
      offset += w.values.length;
      return `w${i} as (${body} returning 1)`;
    });
    const counts = writes.map((_w, i) => `(select count(*) from w${i})::int as c${i}`);
    text = `with ${ctes.join(', ')} select ${counts.join(', ')}`;
    if (combinedTexts.size < STATEMENT_CACHE_MAX) combinedTexts.set(key, text);
  }
  return { text, values };
}

/**
 * Combined texts by the writes they combine (each write's text and number of values). A payout combines the
 * same few sets of writes over and over: renumbering their placeholders each time showed in its profile, and
 * the same string each time lets the statement-name lookup reuse its hash (issue 13).
 */
const combinedTexts = new Map<string, string>();
