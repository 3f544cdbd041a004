import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createOnboardedUser,
  createUser,
  EXTERNAL_CBU,
  expectError,
  PASSWORD,
  randomCuit,
  startTestApp,
  uniqueEmail,
  withdraw,
  type OnboardedUser,
  type TestApp,
} from '../../test/helpers.js';

const RLO = '\u202E';
const REFUSED = ['\u202A', RLO, '\u2066', '\u2069', '\u200B', '\u200D', '\uFEFF', '\u200E', '\u200F', '\u061C', '\u2060', '\u2064'];

/** D39: names an owner reads are trimmed; blank ones and ones holding bidi or zero-width characters are refused. */
describe('names an owner reads (D39)', () => {
  let t: TestApp;
  let u: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp();
    u = await createOnboardedUser(t.app, { fundArs: 1000 });
  });
  afterAll(() => t.close());

  const db = () => t.app.ctx.store.db;
  const createKey = (name: string) => t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(u.ownerToken), payload: { name } });
  const keyCount = async () => (await db().selectFrom('api_keys').select('id').where('user_id', '=', u.id).execute()).length;

  it('a key name of only spaces, or with a right-to-left override or a zero-width character, is refused naming the field', async () => {
    const before = await keyCount();
    for (const name of ['   ', '\t\n ', `agent ${RLO}fdp.exe`, ...REFUSED.map((c) => `ag${c}ent`)]) {
      const res = await createKey(name);
      expectError(res, 400, 'INVALID_REQUEST');
      expect(res.json().message).toMatch(/^body\.name: must not (be blank|contain bidirectional control or zero-width characters)$/);
    }
    expect(await keyCount()).toBe(before);
    const patched = await t.app.inject({ method: 'PATCH', url: `/v1/api-keys/${u.apiKeyId}`, headers: bearer(u.ownerToken), payload: { name: `x${RLO}y` } });
    expectError(patched, 400, 'INVALID_REQUEST');
    expectError(await t.app.inject({ method: 'PATCH', url: `/v1/api-keys/${u.apiKeyId}`, headers: bearer(u.ownerToken), payload: { name: '  ' } }), 400, 'INVALID_REQUEST');
  });

  it('names are stored trimmed: a key, its rename, a user', async () => {
    const key = await createKey('  compras  ');
    expect(key.statusCode).toBe(201);
    expect(key.json().name).toBe('compras');
    const renamed = await t.app.inject({ method: 'PATCH', url: `/v1/api-keys/${key.json().id}`, headers: bearer(u.ownerToken), payload: { name: ' ventas ' } });
    expect(renamed.json().name).toBe('ventas');
    const user = await t.app.inject({ method: 'POST', url: '/v1/users', payload: { email: uniqueEmail(), password: PASSWORD, name: '  Ana  ' } });
    expect(user.json().name).toBe('Ana');
  });

  it('a blank or spoofed user name creates no user', async () => {
    for (const name of ['  ', `Ana${RLO}`]) {
      const email = uniqueEmail();
      const res = await t.app.inject({ method: 'POST', url: '/v1/users', payload: { email, password: PASSWORD, name } });
      expectError(res, 400, 'INVALID_REQUEST');
      expect(res.json().message).toMatch(/^body\.name: /);
      expect(await db().selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(0);
    }
  });

  it('a legal name with a zero-width space opens no wallet', async () => {
    const v = await createUser(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/v1/onboarding', headers: bearer(v.ownerToken), payload: { legal_id: randomCuit(), legal_name: 'Ana\u200BPérez' } });
    expectError(res, 400, 'INVALID_REQUEST');
    expect(res.json().message).toMatch(/^body\.legal_name: /);
    expect(await db().selectFrom('wallets').select('user_id').where('user_id', '=', v.id).execute()).toHaveLength(0);
  });

  it('a payout note: blank or bidi refused with no payout; padded stored trimmed; the older surface and MCP alike', async () => {
    const payouts = async () => (await db().selectFrom('payouts').select('id').where('user_id', '=', u.id).execute()).length;
    const before = await payouts();
    for (const note of ['   ', `pago ${RLO}x`]) {
      const res = await withdraw(t.app, u.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU, note });
      expectError(res, 400, 'INVALID_REQUEST');
      expect(res.json().message).toMatch(/^body\.note: /);
    }
    const transfer = await t.app.inject({
      method: 'POST',
      url: '/v1/transfers',
      headers: { ...bearer(u.agentToken), 'idempotency-key': 'd39-transfer' },
      payload: { amount: 1, destination: EXTERNAL_CBU, description: `x${RLO}` },
    });
    expect(transfer.statusCode).toBe(400);
    expect(transfer.json().message).toMatch(/^body\.description: /);
    const mcp = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...bearer(u.apiKey), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'request_payout', arguments: { amount_ars: 1, destination: EXTERNAL_CBU, note: ' \u200B ', idempotency_key: 'd39-mcp' } },
      }),
    });
    const result = mcp.json().result;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0].text)).toEqual({ error: 'INVALID_REQUEST', message: expect.stringMatching(/^note: /) });
    expect(await payouts()).toBe(before);

    const ok = await withdraw(t.app, u.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU, note: '  factura 12  ' });
    expect(ok.statusCode).toBe(201);
    expect((await db().selectFrom('payouts').select('note').where('id', '=', ok.json().id).executeTakeFirstOrThrow()).note).toBe('factura 12');
  });
});
