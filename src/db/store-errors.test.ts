import { describe, expect, it } from 'vitest';
import { isStoreUnavailable, storeFailureKind, StoreUnavailable } from './store-errors.js';

/** The `kind` label of `store_unavailable_total` (README, Operations): which bound or failure a 503 came from. */
describe('store failure kinds', () => {
  it.each([
    [Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }), 'statement_timeout'],
    [Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' }), 'lock_timeout'],
    [Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }), 'busy'],
    [new Error('timeout exceeded when trying to connect'), 'checkout_timeout'],
    [new StoreUnavailable('The store rolled back a group of transactions after an error; retry'), 'group_rolled_back'],
    [new StoreUnavailable('The store could not undo one transaction of a group alone; retry (x)', new Error('x')), 'group_rolled_back'],
    [new Error('Connection terminated unexpectedly'), 'connection'],
  ])('%s → %s, and it is the store being unavailable (503)', (err, kind) => {
    expect(isStoreUnavailable(err)).toBe(true);
    expect(storeFailureKind(err)).toBe(kind);
  });
});
