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
});
