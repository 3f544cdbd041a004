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

/**
 * D30/D8: text refuses U+0000–U+001F other than tab and newline, on every store. PostgreSQL cannot store NUL at
 * all, so before this a NUL there was a 500; run this file with TEST_DATABASE_URL to prove that path too.
 */
describe('control characters in request text (D30)', () => {
  let t: TestApp;
  let u: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp();
    u = await createOnboardedUser(t.app, { fundArs: 1000 });
  });
  afterAll(() => t.close());

  const db = () => t.app.ctx.store.db;

  it('a NUL in a withdraw note answers 400 naming the field and creates no payout', async () => {
    const res = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU, note: 'pago\u0000x' }, 'nul-note');
    expectError(res, 400, 'INVALID_REQUEST');
    expect(res.json().message).toBe('body.note: must not contain control characters');
    expect(await db().selectFrom('payouts').select('id').where('user_id', '=', u.id).execute()).toHaveLength(0);
    // The key was not spent: the same key with a clean body goes through.
    const ok = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU, note: 'pago' }, 'nul-note');
    expect(ok.statusCode).toBe(201);
  });

  it('tab and newline are text, other C0 controls are not', async () => {
    const ok = await withdraw(t.app, u.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU, note: 'línea 1\n\tlínea 2' });
    expect(ok.statusCode).toBe(201);
    for (const c of ['\u0001', '\u0008', '\u000b', '\r', '\u001b', '\u001f']) {
      const res = await withdraw(t.app, u.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU, note: `a${c}b` });
      expectError(res, 400, 'INVALID_REQUEST');
    }
  });

  it('a NUL in an API key name answers 400 and creates no key', async () => {
    const before = await db().selectFrom('api_keys').select('id').where('user_id', '=', u.id).execute();
    const res = await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(u.ownerToken), payload: { name: 'agent\u0000' } });
    expectError(res, 400, 'INVALID_REQUEST');
    expect(res.json().message).toBe('body.name: must not contain control characters');
    expect(await db().selectFrom('api_keys').select('id').where('user_id', '=', u.id).execute()).toHaveLength(before.length);
  });

  it('a NUL in a user name answers 400 and creates no user', async () => {
    const email = uniqueEmail();
    const res = await t.app.inject({ method: 'POST', url: '/v1/users', payload: { email, password: PASSWORD, name: 'Ana\u0000' } });
    expectError(res, 400, 'INVALID_REQUEST');
    expect(res.json().message).toBe('body.name: must not contain control characters');
    expect(await db().selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(0);
  });

  it('a NUL in the onboarding legal_name answers 400 and opens no wallet', async () => {
    const fresh = await createUser(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/onboarding',
      headers: bearer(fresh.ownerToken),
      payload: { legal_id: randomCuit(), legal_name: 'Ana\u0000Pérez' },
    });
    expectError(res, 400, 'INVALID_REQUEST');
    expect(res.json().message).toBe('body.legal_name: must not contain control characters');
    expect(await db().selectFrom('wallets').select('user_id').where('user_id', '=', fresh.id).execute()).toHaveLength(0);
  });

  it('nested fields and path parameters are checked too', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/thresholds',
      headers: bearer(u.ownerToken),
      payload: { per_tx_limit_ars: 1, daily_limit_ars: 1, monthly_limit_ars: 1, require_approval_above_ars: 1, whitelist_cbus: [EXTERNAL_CBU, 'x\u0000'] },
    });
    expectError(res, 400, 'INVALID_REQUEST');
    expect(res.json().message).toMatch(/^body\.whitelist_cbus\.1: /);
    const byId = await t.app.inject({ method: 'GET', url: '/v1/withdraws/wd_%00', headers: bearer(u.agentToken) });
    expectError(byId, 400, 'INVALID_REQUEST');
    expect(byId.json().message).toBe('params.id: must not contain control characters');
  });

  it('MCP tool arguments: a NUL in idempotency_key is an INVALID_REQUEST tool error and creates nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...bearer(u.apiKey), accept: 'application/json, text/event-stream' },
      payload: {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'request_payout', arguments: { amount_ars: 5, destination: EXTERNAL_CBU, idempotency_key: 'k\u0000' } },
      },
    });
    expect(res.statusCode).toBe(200);
    const result = res.json().result;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0].text)).toEqual({
      error: 'INVALID_REQUEST',
      message: 'idempotency_key: must not contain control characters',
    });
    const rows = await db().selectFrom('payouts').select('id').where('user_id', '=', u.id).where('amount', '=', 500).execute();
    expect(rows).toHaveLength(0);
  });
});
