import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { isClientTimeout, isReadOnlyServer, StoreUnavailable } from './store-errors.js';

/** The bounds of every wait on PostgreSQL (D42), from `Config.database`. */
export interface PostgresLimits {
  /** Connections this pool keeps at most. */
  poolMax: number;
  /** How long a query may wait for a pooled connection (node-postgres's `connectionTimeoutMillis`). */
  checkoutTimeoutMs: number;
  /** Callers waiting for a connection beyond which a new one is refused at once rather than queued. */
  maxWaiting: number;
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  /**
   * The longest a statement may run by the server's own bounds: `statementTimeoutMs`, or more where a transaction
   * raises it (the owner's safety actions). The client gives up on an answer this much plus a margin later.
   */
  longestStatementMs?: number;
}

/** How much later than the server's own bound the client stops waiting for an answer. */
const CLIENT_TIMEOUT_MARGIN_MS = 5_000;

export interface PostgresEvents {
  /** A connection was lost or broke (a failover, a restart, an administrator); the pool replaces it. */
  onConnectionError?: (err: unknown) => void;
  /** The session settings failed on a new connection, which is then closed. */
  onSettingsFailed?: (err: unknown) => void;
}

/** Distinct statement texts given a name per connection; texts past this run unnamed. */
const NAMED_STATEMENTS_MAX = 500;

/** Statement texts whose call site lets PostgreSQL reuse their plan (see `CompiledOptions` in compiled.ts). */
const planReusable = new Set<string>();

/** D42: `text` may run as a named prepared statement, whose plan PostgreSQL may reuse. */
export function reusePlanOf(text: string): void {
  planReusable.add(text);
}

/** Whether `text` runs as a named prepared statement (tests check each such statement's generic plan). */
export function isPlanReused(text: string): boolean {
  return planReusable.has(text);
}

/**
 * A node-postgres pool, and the same pool as Kysely's `PostgresPool`:
 *
 * - Every wait is bounded (D42): `statement_timeout`, `lock_timeout` and `idle_in_transaction_session_timeout`
 *   are set on each new connection, a checkout waits at most `checkoutTimeoutMs`, and once `maxWaiting` callers
 *   wait, the next is refused at once. Each of these fails the request with `SERVICE_UNAVAILABLE` (503).
 * - Only statements whose call site lets their plan be reused (`compiled()`, lookups and writes by key) run as
 *   named prepared statements, through node-postgres's public `query({ name, text, values })`: each connection
 *   parses them once and PostgreSQL may keep a generic plan (`plan_cache_mode = auto`). Every other statement
 *   (claims, lists, the dashboard's queries) is sent unnamed and planned for its own values at each run, so no
 *   plan made while a table was small is kept as it grows.
 * - An `error` listener on every client, checked out or idle: node-postgres emits `error` when a connection
 *   dies, and pg-pool only listens while a client is idle, so a connection lost mid-query ended the process.
 *   Now it fails only the queries that were using it, and the pool opens another when next needed.
 */
export function openPostgresPool(url: string, limits: PostgresLimits, events: PostgresEvents = {}): { pool: pg.Pool; kysely: PostgresPool } {
  // int8 columns hold centavos and counters, always far below 2^53: return them as numbers.
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)),
  };
  const settings = [
    `set statement_timeout = ${limits.statementTimeoutMs}`,
    `set lock_timeout = ${limits.lockTimeoutMs}`,
    `set idle_in_transaction_session_timeout = ${limits.idleInTransactionTimeoutMs}`,
    'set plan_cache_mode = auto',
  ].join('; ');
  const pool = new pg.Pool({
    connectionString: url,
    max: limits.poolMax,
    connectionTimeoutMillis: limits.checkoutTimeoutMs,
    // A server that vanished without closing the socket (a network partition) is noticed by TCP keepalive when
    // idle; a statement waiting for its answer is not (keepalive probes only an idle socket, and the server's
    // statement_timeout cannot answer), so the client bounds that wait itself (D42).
    keepAlive: true,
    query_timeout: Math.max(limits.statementTimeoutMs, limits.longestStatementMs ?? 0) + CLIENT_TIMEOUT_MARGIN_MS,
    types,
    // The bounds, set before the pool hands the connection to anyone (its `onConnect` hook, awaited). Sent as SETs
    // rather than startup options so that the URL's own `options` and a pooler in front are left as they are.
    // Refused, the connection is closed and never used without them: that checkout fails as the store being
    // unavailable (503), and the next one opens another connection.
    onConnect: async (client: pg.ClientBase) => {
      client.on('error', (err) => events.onConnectionError?.(err));
      try {
        await client.query(settings);
      } catch (err) {
        events.onSettingsFailed?.(err);
        throw new StoreUnavailable('a new database connection refused its bounds', err);
      }
    },
  });
  // pg-pool emits an idle client's error on the pool too; the client's own listener (onConnect) has reported it.
  pool.on('error', () => undefined);

  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (!name && names.size < NAMED_STATEMENTS_MAX) {
      name = `s${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
      names.set(text, name);
    }
    return name;
  };
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const forKysely = (client: pg.PoolClient): PostgresPoolClient => {
    let c = clients.get(client);
    if (!c) {
      c = {
        query: ((text: unknown, values?: unknown[]): unknown =>
          (typeof text === 'string' && values && values.length > 0 && planReusable.has(text)
            ? client.query({ name: nameOf(text), text, values })
            : client.query(text as string, values)
          ).catch((err: unknown) => {
            // Past the client's own bound the connection is of no further use (its statement may still be running,
            // or the server is gone): ended at once, so the rollback fails fast and the pool drops it. So is one to a
            // server that has become read-only (25006: a primary demoted in a switchover): the next connection may
            // reach the new primary, while this one would refuse every write until the server closes it.
            if (isClientTimeout(err) || isReadOnlyServer(err)) void client.end().catch(() => undefined);
            throw err;
          })) as PostgresPoolClient['query'],
        // pg-pool sets `release` anew at each checkout, and drops a client that is no longer usable, or that Kysely
        // asks it to destroy (a query it aborted).
        release: (destroy?: boolean) => client.release(destroy),
      };
      clients.set(client, c);
    }
    return c;
  };

  const kysely: PostgresPool = {
    connect: async () => {
      if (pool.waitingCount >= limits.maxWaiting) {
        throw new StoreUnavailable(`${pool.waitingCount} callers already wait for a database connection`, undefined, 'overloaded');
      }
      try {
        return forKysely(await pool.connect());
      } catch (err) {
        throw StoreUnavailable.wrap(err);
      }
    },
    end: () => pool.end(),
    options: pool.options,
  };
  return { pool, kysely };
}

/**
 * After a COMMIT whose answer was lost, whether the server committed: asked of the server by the transaction's id
 * (D42), never guessed from an error. Retries while the old session may still be finishing, or while the server
 * cannot be reached, for at most `patienceMs`; null when it still could not say. Only the server that gave the id
 * (`server`: its start time, read with the id) can say: one restarted since, or another promoted in its place,
 * may not have kept the transaction's log and may have given the same id to another transaction, whose outcome
 * would be taken for this one's (a 201 for a payout that does not exist). Asked of any other, it is not known.
 */
export async function commitOutcome(pool: pg.Pool, tx: { xid: string; server: string }, patienceMs = 10_000): Promise<'committed' | 'aborted' | null> {
  const deadline = Date.now() + patienceMs;
  for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
    try {
      const { rows } = await pool.query<{ status: string | null; server: string }>(
        'select pg_xact_status($1::xid8) as status, pg_postmaster_start_time()::text as server',
        [tx.xid],
      );
      if (rows[0]?.server !== tx.server) return null;
      const status = rows[0]?.status;
      if (status === 'committed' || status === 'aborted') return status;
    } catch {
      // The server may be restarting or failing over: ask again until the deadline.
    }
    if (Date.now() + wait > deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
