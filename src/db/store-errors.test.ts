import { describe, expect, it } from 'vitest';
import { isStoreUnavailable, storeFailureKind, StoreUnavailable } from './store-errors.js';

/** The `kind` label of `store_unavailable_total` (README, Operations): which bound or failure a 503 came from. */
describe('store failure kinds', () => {
  it.each([
    [Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }), 'statement_timeout'],
    [Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' }), 'lock_timeout'],
    [Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }), 'busy'],
    [new Error('timeout exceeded when trying to connect'), 'checkout_timeout'],
    [new Error('Connection terminated unexpectedly'), 'connection'],
    // A write on a primary demoted in a switchover.
    [Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' }), 'connection'],
    // The store's own failures say their kind; the cause is the driver's error that led to them.
    [new StoreUnavailable('the database connection was lost and the outcome is not known yet', new Error('Connection terminated unexpectedly'), 'commit_unknown'), 'commit_unknown'],
    [new StoreUnavailable('100 callers already wait for a database connection', undefined, 'overloaded'), 'overloaded'],
    [StoreUnavailable.wrap(Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' })), 'lock_timeout'],
  ])('%s → %s, and it is the store being unavailable (503)', (err, kind) => {
    expect(isStoreUnavailable(err)).toBe(true);
    expect(storeFailureKind(err)).toBe(kind);
  });
});
