import type { AppContext } from '../../context.js';
import { AppError } from '../../shared/errors.js';

/**
 * A call the service needs the rail to answer now (a destination lookup, an account opening, a balance, a listing):
 * a rail that does not answer is 503 `RAIL_UNAVAILABLE` (with Retry-After), never a 500. An AppError the call raised
 * stays as it is. A network error is the rail's here whatever its text (`ECONNRESET` would also match the store's
 * lost-connection check), so a failure of the sandbox bank's own tables is a 503 `RAIL_UNAVAILABLE` too.
 * `retryHint` ends the message.
 */
export async function askRail<T>(ctx: Pick<AppContext, 'log'>, what: string, call: () => Promise<T>, retryHint = 'retry shortly'): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AppError) throw err;
    ctx.log.warn({ err }, `rail ${what} failed`);
    throw new AppError('RAIL_UNAVAILABLE', `The bank rail is not answering; ${retryHint}`);
  }
}
