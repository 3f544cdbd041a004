import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, EXTERNAL_CBU, expectError, startTestApp, withdraw, type OnboardedUser, type TestApp } from '../../test/helpers.js';

/** D8: a refused request names the field, unknown ones included, so the caller can fix the typo. */
describe('validation messages name the field', () => {
  let t: TestApp;
  let u: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp();
    u = await createOnboardedUser(t.app, { fundArs: 1000 });
  });
  afterAll(() => t.close());

  it('names an unknown body field', async () => {
    const res = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU, amount: 10 });
    expectError(res, 400, 'INVALID_REQUEST');
    expect(res.json().message).toBe('body.amount: unknown field');
  });

  it('names an unknown field on other routes and in the query string', async () => {
    const put = await t.app.inject({ method: 'PUT', url: '/v1/thresholds', headers: bearer(u.ownerToken), payload: { per_tx_limit: 5 } });
    expectError(put, 400, 'INVALID_REQUEST');
    expect(put.json().message).toBe('body.per_tx_limit: unknown field');
    const list = await t.app.inject({ method: 'GET', url: '/v1/approvals?state=pending', headers: bearer(u.ownerToken) });
    expectError(list, 400, 'INVALID_REQUEST');
    expect(list.json().message).toBe('querystring.state: unknown field');
  });

  it('still names missing and mistyped fields', async () => {
    const missing = await withdraw(t.app, u.agentToken, { amount_ars: 10 });
    expect(missing.json().message).toBe("body.destination: must have required property 'destination'");
    const mistyped = await withdraw(t.app, u.agentToken, { amount_ars: '10', destination: EXTERNAL_CBU });
    expect(mistyped.json().message).toBe('body.amount_ars: must be number');
  });

  it('a value outside a fixed list says which values it takes, on REST and MCP alike', async () => {
    const kinds = '(one of CBU, CVU, ALIAS)';
    const rest = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU, destination_kind: 'cbu' });
    expectError(rest, 400, 'INVALID_REQUEST');
    expect(rest.json().message).toBe(`body.destination_kind: must be equal to one of the allowed values ${kinds}`);
    const kyc = await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(u.ownerToken), payload: { status: 'ok' } });
    expect(kyc.json().message).toBe('body.status: must be equal to one of the allowed values (one of pending, verified, rejected)');
    const mcp = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...bearer(u.apiKey), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'simulate_payout', arguments: { amount_ars: 10, destination: EXTERNAL_CBU, destination_kind: 'cbu' } },
      },
    });
    const result = mcp.json().result as { isError: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]!.text)).toEqual({
      error: 'INVALID_REQUEST',
      message: `destination_kind: must be equal to one of the allowed values ${kinds}`,
    });
  });
});
