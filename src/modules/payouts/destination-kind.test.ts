import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, EXTERNAL_CBU, startTestApp, withdraw, type OnboardedUser, type TestApp } from '../../../test/helpers.js';

/** D40: `destination_kind` omitted is inferred as the older surface does, on REST and MCP alike. */
describe('destination kind inferred when omitted (D40)', () => {
  let t: TestApp;
  let a: OnboardedUser;
  let b: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp();
    a = await createOnboardedUser(t.app, { fundArs: 10_000 });
    b = await createOnboardedUser(t.app, { name: 'Beto' });
  });
  afterAll(() => t.close());

  const balanceOf = async (u: OnboardedUser) =>
    (await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json().available;

  it('an alias and a CVU without a kind are paid; a CBU still is', async () => {
    const alias = await withdraw(t.app, a.agentToken, { amount_ars: 100, destination: b.alias });
    expect(alias.statusCode, alias.body).toBe(201);
    const cvu = await withdraw(t.app, a.agentToken, { amount_ars: 50, destination: b.cvu });
    expect(cvu.statusCode, cvu.body).toBe(201);
    const cbu = await withdraw(t.app, a.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU });
    expect(cbu.statusCode, cbu.body).toBe(201);
    const kinds = await t.app.ctx.store.db
      .selectFrom('payouts')
      .select(['id', 'destination_kind'])
      .where('id', 'in', [alias.json().id, cvu.json().id, cbu.json().id])
      .execute();
    expect(Object.fromEntries(kinds.map((k) => [k.id, k.destination_kind]))).toEqual({
      [alias.json().id]: 'ALIAS',
      [cvu.json().id]: 'CVU',
      [cbu.json().id]: 'CBU',
    });
    expect(await balanceOf(b)).toBe('150.00');
  });

  it('a malformed destination without a kind is still denied destination_invalid', async () => {
    for (const destination of ['1234', '2850590940090418135209', 'no such alias!']) {
      const res = await withdraw(t.app, a.agentToken, { amount_ars: 1, destination });
      expect(res.statusCode).toBe(422);
      expect(res.json().reasons).toEqual(['destination_invalid']);
    }
  });

  it('MCP request_payout without a kind pays an alias', async () => {
    const before = await balanceOf(b);
    const res = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...bearer(a.apiKey), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'request_payout', arguments: { amount_ars: 25, destination: b.alias, idempotency_key: 'd40-mcp' } },
      }),
    });
    const result = res.json().result;
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    const row = await t.app.ctx.store.db.selectFrom('payouts').select('destination_kind').where('id', '=', result.structuredContent.id).executeTakeFirstOrThrow();
    expect(row.destination_kind).toBe('ALIAS');
    expect(Number(await balanceOf(b))).toBe(Number(before) + 25);
  });
});
