/**
 * Failures of the store that say nothing about the request, only that the database cannot serve it now (D42): a
 * lost connection, a bound reached (statement, lock, idle in transaction, checkout), an overloaded pool. The HTTP
 * layer answers them 503 `SERVICE_UNAVAILABLE` with `Retry-After`; nothing of the failed transaction is kept.
 */
export class StoreUnavailable extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
    /** For metrics; when not given, `storeFailureKind` reads it off `cause`. */
    readonly kind?: StoreFailureKind,
  ) {
    super(message);
    this.name = 'StoreUnavailable';
  }

  static wrap(err: unknown): StoreUnavailable {
    return err instanceof StoreUnavailable ? err : new StoreUnavailable(`the database is unavailable: ${messageOf(err)}`, err);
  }
}

/**
 * SQLSTATEs (PostgreSQL) that mean "not now" rather than "wrong": class 08 (connection exception), 40001 and
 * 40P01 (serialization failure, deadlock: the transaction was rolled back), 53 (insufficient resources),
 * 55P03 (lock_timeout), 57014 (statement_timeout or cancel), 57P01-57P03 (the server shutting down or
 * restarting), 25P03 (idle_in_transaction_session_timeout), 25006 (a write reaching a server that is read-only now:
 * a primary demoted in a switchover, before the connection moves to the new one).
 */
const TRANSIENT_SQLSTATE = /^(08...|40001|40P01|53...|55P03|57014|57P0[1-3]|25P03|25006)$/;

/** Errors node-postgres raises without a SQLSTATE when the connection itself failed. */
const CONNECTION_LOST = /Connection terminated|not queryable|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|timeout exceeded when trying to connect|Client was closed|Query read timeout/i;

/** node-postgres gave up waiting for a statement's answer (its `query_timeout`, D42). */
export function isClientTimeout(err: unknown): boolean {
  return err instanceof Error && err.message === 'Query read timeout';
}

/** The server refused a write as read-only (25006): a primary demoted in a switchover. */
export function isReadOnlyServer(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === '25006';
}

/** Whether `err` is the store being unavailable (see StoreUnavailable), on either store. */
export function isStoreUnavailable(err: unknown): boolean {
  if (err instanceof StoreUnavailable) return true;
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (TRANSIENT_SQLSTATE.test(code)) return true;
  // SQLite: another process holds the write lock past busy_timeout.
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return true;
  if (/^[0-9A-Z]{5}$/.test(code)) return false;
  return CONNECTION_LOST.test(String(e.message ?? '')) || /^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT)$/.test(code);
}

/**
 * Whether a failed COMMIT may nevertheless have committed: the server did not answer it (the connection was lost,
 * or the session was terminated while committing). An answer with any other SQLSTATE is a refusal: rolled back.
 */
export function commitMayHaveHappened(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return /^(08...|57P0[1-3])$/.test(code);
  return true;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The `kind` label of `store_unavailable_total` (README, Operations). */
export type StoreFailureKind =
  | 'statement_timeout'
  | 'canceled'
  | 'lock_timeout'
  | 'idle_in_transaction_timeout'
  | 'serialization'
  | 'busy'
  | 'checkout_timeout'
  | 'overloaded'
  | 'group_rolled_back'
  | 'commit_unknown'
  | 'connection';

/**
 * Which bound or failure a StoreUnavailable came from, for metrics (D42): the kind the store gave it, else read
 * off the driver's error. node-postgres gives its own failures (a checkout timeout, a lost connection) no code,
 * so those two are told apart by the driver's message.
 */
export function storeFailureKind(err: unknown): StoreFailureKind {
  if (err instanceof StoreUnavailable && err.kind) return err.kind;
  const inner = err instanceof StoreUnavailable && err.cause !== undefined ? err.cause : err;
  const code = (inner as { code?: unknown } | null)?.code;
  const message = String((inner as { message?: unknown } | null)?.message ?? '');
  if (code === '57014') return /statement timeout/i.test(message) ? 'statement_timeout' : 'canceled';
  if (code === '55P03') return 'lock_timeout';
  if (code === '25P03') return 'idle_in_transaction_timeout';
  if (code === '40001' || code === '40P01') return 'serialization';
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return 'busy';
  if (/timeout exceeded when trying to connect/i.test(message)) return 'checkout_timeout';
  return 'connection';
}
