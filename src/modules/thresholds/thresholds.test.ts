import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, expectError, startTestApp, type TestApp, type TestUser } from '../../../test/helpers.js';

describe('thresholds', () => {
  let t: TestApp;
  let u: TestUser;
  beforeAll(async () => {
    t = await startTestApp({ env: { DEFAULT_WHITELIST_CBUS: '2850590940090418135201' } });
    u = await createUser(t.app);
  });
  afterAll(() => t.close());

  const get = (token: string) => t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(token) });
  const put = (token: string, payload: unknown) =>
    t.app.inject({ method: 'PUT', url: '/v1/thresholds', headers: bearer(token), payload: payload as object });

  it('reads the server defaults when none are stored', async () => {
    const res = await get(u.agentToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      per_tx_limit_ars: 100000,
      daily_limit_ars: 500000,
      monthly_limit_ars: 2000000,
      whitelist_cbus: ['2850590940090418135201'],
      require_approval_above_ars: 50000,
    });
  });

  it('the owner replaces them; omitted numeric fields become 0 and an omitted whitelist []', async () => {
    const v = await createUser(t.app);
    const res = await put(v.ownerToken, { per_tx_limit_ars: 1500.5, whitelist_cbus: ['Mate.Rio.Sol', '0170099220000067797370'] });
    expect(res.statusCode).toBe(204);
    expect((await get(v.ownerToken)).json()).toEqual({
      per_tx_limit_ars: 1500.5,
      daily_limit_ars: 0,
      monthly_limit_ars: 0,
      whitelist_cbus: ['Mate.Rio.Sol', '0170099220000067797370'],
      require_approval_above_ars: 0,
    });
    expect((await put(v.ownerToken, {})).statusCode).toBe(204);
    expect((await get(v.ownerToken)).json().whitelist_cbus).toEqual([]);
    // Another user's thresholds are untouched.
    expect((await get(u.ownerToken)).json().per_tx_limit_ars).toBe(100000);
  });

  it('an agent session cannot change thresholds (D13)', async () => {
    expectError(await put(u.agentToken, { per_tx_limit_ars: 1 }), 403, 'OWNER_SESSION_REQUIRED');
    expect((await get(u.ownerToken)).json().per_tx_limit_ars).toBe(100000);
  });

  it.each([
    [{ per_tx_limit_ars: -1 }, 'per_tx_limit_ars'],
    [{ daily_limit_ars: 1.001 }, 'daily_limit_ars'],
    [{ monthly_limit_ars: '100' }, 'monthly_limit_ars'],
    [{ whitelist_cbus: ['2850590940090418135202'] }, 'whitelist_cbus'],
    [{ whitelist_cbus: ['no'] }, 'whitelist_cbus'],
    [{ whitelist_cbus: 'x' }, 'whitelist_cbus'],
    [{ unknown_field: 1 }, 'body'],
  ])('refuses %j with 400 naming %s and changes nothing', async (payload, field) => {
    const res = await put(u.ownerToken, payload);
    expectError(res, 400, 'INVALID_REQUEST');
    expect(res.json().message).toContain(field);
    expect((await get(u.ownerToken)).json().per_tx_limit_ars).toBe(100000);
  });

  it('needs a token', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/v1/thresholds' }), 401, 'UNAUTHENTICATED');
    expectError(await t.app.inject({ method: 'PUT', url: '/v1/thresholds', payload: {} }), 401, 'UNAUTHENTICATED');
  });
});
