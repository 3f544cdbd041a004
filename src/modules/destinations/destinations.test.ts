import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, expectError, EXTERNAL_CBU, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import type { BankRail } from '../rail/rail.port.js';

const resolve = (app: FastifyInstance, token: string | null, body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/v1/destinations/resolve', headers: token === null ? {} : bearer(token), payload: body });

async function tool(app: FastifyInstance, key: string, args: Record<string, unknown>) {
  const res = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...bearer(key), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'resolve_destination', arguments: args } },
  });
  return res;
}

describe('POST /v1/destinations/resolve and resolve_destination', () => {
  let t: TestApp;
  let a: OnboardedUser;
  let b: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp();
    a = await createOnboardedUser(t.app, { name: 'Ana Pérez' });
    b = await createOnboardedUser(t.app, { name: 'Beto Gómez' });
  });
  afterAll(() => t.close());

  it('a CBU: holder, masked CUIT, the bank by its BCRA code; the kind inferred from the 22 digits', async () => {
    const res = await resolve(t.app, a.agentToken, { destination: EXTERNAL_CBU });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      destination_kind: 'CBU',
      account: EXTERNAL_CBU,
      holder_name: 'Titular cuenta 5201',
      holder_legal_id: expect.stringMatching(/^\*{8}\d{3}$/),
      bank_name: 'Banco Macro S.A.',
    });
  });

  it("an alias and a CVU of another customer: the same account, the holder's CUIT masked but for its last 3 digits", async () => {
    const byAlias = (await resolve(t.app, a.agentToken, { destination: b.alias })).json();
    expect(byAlias).toEqual({ destination_kind: 'ALIAS', account: b.cvu, holder_name: 'Beto Gómez', holder_legal_id: `********${b.legalId.slice(-3)}`, bank_name: null });
    const byCvu = (await resolve(t.app, a.agentToken, { destination: b.cvu })).json();
    expect(byCvu).toEqual({ ...byAlias, destination_kind: 'CVU' });
    // Aliases compare without case; a kind given is used as given.
    expect((await resolve(t.app, a.agentToken, { destination: b.alias.toUpperCase(), destination_kind: 'ALIAS' })).json().account).toBe(b.cvu);
  });

  it('404 DESTINATION_NOT_FOUND: an unknown alias, a bad check digit, a kind that does not fit; through MCP too', async () => {
    for (const body of [
      { destination: 'nadie.tiene.esto' },
      { destination: `${EXTERNAL_CBU.slice(0, 21)}0` },
      { destination: EXTERNAL_CBU, destination_kind: 'CVU' },
      { destination: '12345' },
    ]) {
      expectError(await resolve(t.app, a.agentToken, body), 404, 'DESTINATION_NOT_FOUND');
    }
    const res = await tool(t.app, a.apiKey, { destination: 'nadie.tiene.esto' });
    const result = res.json().result;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0].text)).toMatchObject({ error: 'DESTINATION_NOT_FOUND' });
    const ok = (await tool(t.app, a.apiKey, { destination: b.alias })).json().result;
    expect(ok.structuredContent).toMatchObject({ destination_kind: 'ALIAS', account: b.cvu, holder_name: 'Beto Gómez' });
  });

  it('bad bodies are 400 INVALID_REQUEST', async () => {
    for (const body of [{}, { destination: '' }, { destination: EXTERNAL_CBU, destination_kind: 'IBAN' }, { destination: EXTERNAL_CBU, extra: 1 }]) {
      expectError(await resolve(t.app, a.agentToken, body), 400, 'INVALID_REQUEST');
    }
  });

  it('security: no token, a raw key on REST, a key without payouts:read, a deleted key', async () => {
    const body = { destination: EXTERNAL_CBU };
    expectError(await resolve(t.app, null, body), 401, 'UNAUTHENTICATED');
    expectError(await resolve(t.app, a.apiKey, body), 401, 'INVALID_TOKEN');
    const mk = async (scopes: string[]) => {
      const k = (await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(a.ownerToken), payload: { name: 'x', scopes } })).json();
      const token = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: k.key } })).json().token as string;
      return { id: k.id as string, key: k.key as string, token };
    };
    const writer = await mk(['payouts:write']);
    expectError(await resolve(t.app, writer.token, body), 403, 'INSUFFICIENT_SCOPE');
    expect(JSON.parse((await tool(t.app, writer.key, body)).json().result.content[0].text)).toMatchObject({ error: 'INSUFFICIENT_SCOPE' });
    const reader = await mk(['payouts:read']);
    expect((await resolve(t.app, reader.token, body)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${reader.id}`, headers: bearer(a.ownerToken) })).statusCode).toBeLessThan(300);
    expectError(await resolve(t.app, reader.token, body), 401, 'INVALID_TOKEN');
    expect((await tool(t.app, reader.key, body)).statusCode).toBe(401);
  });
});

describe('resolve and simulate when the rail does not answer', () => {
  it('503 RAIL_UNAVAILABLE, and the BIND name of a CVU provider is shown', async () => {
    let fail = true;
    const t = await startTestApp({
      deps: {
        rail: (rail: BankRail): BankRail =>
          Object.assign(Object.create(rail) as BankRail, {
            resolve: async (kind: Parameters<BankRail['resolve']>[0], value: string) => {
              if (fail) throw new Error('rail down');
              const r = await rail.resolve(kind, value);
              return r && { ...r, bankName: 'Proveedor PSP S.A.' };
            },
          }),
      },
    });
    try {
      const u = await createOnboardedUser(t.app);
      const res = await resolve(t.app, u.agentToken, { destination: u.cvu });
      expectError(res, 503, 'RAIL_UNAVAILABLE');
      expect(res.json().message).toMatch(/retry shortly/);
      // A simulation answers what the payout would, without the payout's advice to reuse an idempotency key.
      const sim = await t.app.inject({ method: 'POST', url: '/v1/withdraws/simulate', headers: bearer(u.agentToken), payload: { amount_ars: 1, destination: EXTERNAL_CBU } });
      expectError(sim, 503, 'RAIL_UNAVAILABLE');
      expect(sim.json().message).not.toMatch(/Idempotency/);
      fail = false;
      expect((await resolve(t.app, u.agentToken, { destination: u.cvu })).json()).toMatchObject({ destination_kind: 'CVU', bank_name: 'Proveedor PSP S.A.' });
      // A CBU's bank comes from the BCRA table, whatever the rail calls it.
      expect((await resolve(t.app, u.agentToken, { destination: EXTERNAL_CBU })).json().bank_name).toBe('Banco Macro S.A.');
    } finally {
      await t.close();
    }
  });
});
