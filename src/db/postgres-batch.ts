import { createRequire } from 'node:module';
import type pg from 'pg';

/** node-postgres's own result builder and value encoder, so a batched statement answers exactly as a lone one. */
interface PgResult {
  command: string | null;
  rowCount: number | null;
  rows: unknown[];
  fields: unknown[];
  _parsers?: unknown[];
  _prebuiltEmptyResultObject?: unknown;
  addFields(fields: unknown[]): void;
  parseRow(row: unknown[]): unknown;
  addRow(row: unknown): void;
  addCommandComplete(msg: unknown): void;
}
const require = createRequire(import.meta.url);
const Result = require('pg/lib/result.js') as new (rowMode: undefined, types: unknown) => PgResult;
const { prepareValue } = require('pg/lib/utils.js') as { prepareValue(v: unknown): unknown };

/** The parts of node-postgres's connection a batch writes to (its own `Query` uses the same). */
interface Connection {
  stream: { cork?(): void; uncork?(): void };
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  parse(q: { text: string; name: string }): void;
  bind(q: { portal: string; statement: string; values: unknown[] }): void;
  describe(q: { type: 'P'; name: string }): void;
  execute(q: { portal: string }): void;
  close(q: { type: 'S'; name: string }): void;
  sync(): void;
}

export interface BatchItem {
  text: string;
  values: unknown[];
  /** A prepared statement's name on this connection; unnamed statements are parsed every time. */
  name?: string;
}

/** What a prepared statement answers: its columns, and node-postgres's parsers and empty row for them. */
type Described = Pick<PgResult, 'fields' | '_parsers' | '_prebuiltEmptyResultObject'>;

/**
 * The row description of each statement prepared on a connection, learnt the first time it ran. A prepared
 * statement's columns never change (PostgreSQL refuses to run one whose result type would), so later runs skip
 * the Describe, and the server and node-postgres skip describing and parsing the same columns again (issue 13).
 */
const descriptions = new WeakMap<Connection, Map<string, Described>>();

/** Names whose Parse may or may not have reached the server (its batch failed on it): closed before reuse. */
const uncertain = new WeakMap<Connection, Set<string>>();

/**
 * Where a batch that was sent failed: the statement at `index` failed or may not have run (a lost connection),
 * those before it ran and answered `results`, and those after it never ran.
 */
const failures = new WeakMap<object, { index: number; results: readonly PgResult[] }>();
export const failureOf = (err: unknown): { index: number; results: readonly PgResult[] } | undefined =>
  typeof err === 'object' && err !== null ? failures.get(err) : undefined;

/** Errors raised before a batch wrote anything: what it carried is still the caller's to send. */
const notSent = new WeakSet<object>();
export const wasNotSent = (err: unknown): boolean => typeof err === 'object' && err !== null && notSent.has(err);

/**
 * Values as node-postgres writes them. Encoding the whole batch first means a value that cannot be encoded fails
 * before a byte is written, rather than leaving part of a batch (a Parse, say) on the connection.
 */
function encodeValues(values: readonly unknown[]): unknown[] {
  return values.map((v) => prepareValue(v));
}

/**
 * Several statements sent in one write and answered in one read (issue 13): each statement's Parse (unless
 * its name is already prepared on the connection), Bind, Describe (unless the prepared statement's columns are
 * already known) and Execute, then a single Sync. The server runs them in order and flushes its answers once, at
 * the Sync, so the batch costs one round trip: one send and one receive on each side, and one wait.
 *
 * With one Sync the statements share the server's error handling: after the first error the server skips the
 * rest, so the failing statement and every later one reject with that error. That is only right where the
 * statements would not be committed apart anyway, which is why `postgres-client.ts` batches only inside a
 * transaction (and BEGIN with its first statement).
 *
 * node-postgres runs it as one query (a "submittable"): it writes nothing else on the connection until the
 * ReadyForQuery that ends it.
 */
export class Batch {
  readonly done: Promise<PgResult[]>;
  /** Set by node-postgres when it times the query (`query_timeout`): calling it clears that timer. */
  callback?: (err: unknown, results?: PgResult[]) => void;
  private readonly results: PgResult[];
  private index = 0;
  private settled = false;
  private resolve!: (r: PgResult[]) => void;
  private reject!: (e: unknown) => void;
  /** Named statements this batch parses, by position: confirmed once the server answered past them. */
  private readonly parsing = new Map<number, string>();
  private connection?: Connection;
  /** A row the type parsers could not read: the batch fails with it once the server is done (as `Query` does). */
  private parseError: unknown;
  /** Positions whose statement was described: what the server answers is kept for the statement's later runs. */
  private readonly describing = new Map<number, string>();

  constructor(
    private readonly items: readonly BatchItem[],
    types: unknown,
  ) {
    this.results = items.map(() => new Result(undefined, types));
    this.done = new Promise((res, rej) => {
      this.resolve = res;
      this.reject = rej;
    });
  }

  submit(connection: Connection): Error | null {
    // Encoded before anything is written: a value that cannot be encoded must not leave half a batch corked.
    let encoded: unknown[][];
    try {
      encoded = this.items.map((it) => encodeValues(it.values));
    } catch (err) {
      if (typeof err === 'object' && err !== null) notSent.add(err);
      return err as Error;
    }
    this.connection = connection;
    const doubtful = uncertain.get(connection);
    let described = descriptions.get(connection);
    if (!described) descriptions.set(connection, (described = new Map()));
    connection.stream.cork?.();
    try {
      this.items.forEach((it, i) => {
        const name = it.name ?? '';
        if (!name || (connection.parsedStatements[name] === undefined && connection.submittedNamedStatements[name] === undefined)) {
          // Still in doubt until the server answers past it: an earlier failure in this batch skips the Close too.
          if (name && doubtful?.has(name)) connection.close({ type: 'S', name });
          connection.parse({ text: it.text, name });
          if (name) {
            connection.submittedNamedStatements[name] = it.text;
            this.parsing.set(i, name);
            described.delete(name);
          }
        }
        connection.bind({ portal: '', statement: name, values: encoded[i]! });
        const known = name ? described.get(name) : undefined;
        if (known) Object.assign(this.results[i]!, known);
        else {
          connection.describe({ type: 'P', name: '' });
          if (name) this.describing.set(i, name);
        }
        connection.execute({ portal: '' });
      });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(msg: { fields: unknown[] }): void {
    this.results[this.index]?.addFields(msg.fields);
  }

  handleDataRow(msg: { fields: unknown[] }): void {
    const r = this.results[this.index];
    if (!r || this.parseError !== undefined) return;
    try {
      r.addRow(r.parseRow(msg.fields));
    } catch (err) {
      this.parseError = err;
    }
  }

  handleCommandComplete(msg: unknown): void {
    this.results[this.index]?.addCommandComplete(msg);
    this.learnDescription(this.index);
    this.confirmParsed(this.index);
    this.index++;
  }

  handleEmptyQuery(): void {
    this.confirmParsed(this.index);
    this.index++;
  }

  handleReadyForQuery(): void {
    if (this.settled) return;
    this.settled = true;
    if (this.parseError !== undefined) this.fail(this.parseError);
    else {
      this.callback?.(null, this.results);
      this.resolve(this.results);
    }
  }

  handleError(err: unknown): void {
    // The bookkeeping even when already settled: a batch rejected early (a read timeout) still runs on the server.
    const c = this.connection;
    if (c) {
      // The failing statement's Parse may or may not have succeeded; later ones were skipped unparsed.
      for (const [i, name] of this.parsing) {
        if (i < this.index) continue;
        delete c.submittedNamedStatements[name];
        if (i === this.index) {
          let set = uncertain.get(c);
          if (!set) uncertain.set(c, (set = new Set()));
          set.add(name);
        }
      }
    }
    if (this.settled) return;
    this.settled = true;
    if (typeof err === 'object' && err !== null) failures.set(err, { index: this.index, results: this.results.slice(0, this.index) });
    this.fail(err);
  }

  /** A batch never opens a portal across round trips, nor a COPY. */
  handlePortalSuspended(): void {}
  handleCopyInResponse(connection: { sendCopyFail(msg: string): void }): void {
    connection.sendCopyFail('COPY is not supported in a batch');
  }
  handleCopyData(): void {}

  private fail(err: unknown): void {
    this.callback?.(err);
    this.reject(err);
  }

  /** A described statement that ran: its columns (none when the server answered NoData) serve its later runs. */
  private learnDescription(i: number): void {
    const name = this.describing.get(i);
    const r = this.results[i];
    const described = this.connection && descriptions.get(this.connection);
    if (!name || !r || !described) return;
    described.set(name, { fields: r.fields, _parsers: r._parsers, _prebuiltEmptyResultObject: r._prebuiltEmptyResultObject });
  }

  private confirmParsed(i: number): void {
    const name = this.parsing.get(i);
    const c = this.connection;
    if (!name || !c) return;
    c.parsedStatements[name] = c.submittedNamedStatements[name] ?? this.items[i]!.text;
    delete c.submittedNamedStatements[name];
    uncertain.get(c)?.delete(name);
  }
}

/**
 * Runs `items` as one batch through `query`, the client's own (unwrapped) `query`, with `client`'s type parsers.
 */
export function runBatch(client: pg.PoolClient, query: (q: Batch) => unknown, items: readonly BatchItem[]): Promise<PgResult[]> {
  const batch = new Batch(items, (client as unknown as { _types?: unknown })._types);
  query(batch);
  return batch.done;
}
