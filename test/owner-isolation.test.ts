import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, expectError, EXTERNAL_CBU, startTestApp, withdraw, type OnboardedUser, type TestApp } from './helpers.js';
import { connectApp, mcp } from './oauth-flow.js';

/**
 * One owner's session aimed at another owner's ids, on every owner route that takes an id (D20 and the owner
 * routes of D13, D28, D31, D36): each answers 404 NOT_FOUND exactly as for an id that does not exist, never a 409
 * or 422 that would tell the id is real, and the other owner's things are left as they were.
 */
describe("an owner acting on another owner's ids", () => {
  let t: TestApp;
  let a: OnboardedUser;
  let b: OnboardedUser;
  let keyId = '';
  let pending: { id: string; approval_id: string };
  let decided: { id: string; approval_id: string };

  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'http://localhost' } });
    a = await createOnboardedUser(t.app, { name: 'Ana', fundArs: 1_000_000 });
    b = await createOnboardedUser(t.app, { name: 'Beto', fundArs: 1_000_000 });
    const key = await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(a.ownerToken), payload: { name: 'compras' } });
    expect(key.statusCode).toBe(201);
    keyId = key.json().id;
    const held = await withdraw(t.app, a.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU, note: 'de Ana' });
    expect(held.statusCode).toBe(202);
    pending = held.json();
    const other = await withdraw(t.app, a.agentToken, { amount_ars: 70_000, destination: EXTERNAL_CBU });
    expect(other.statusCode).toBe(202);
    decided = other.json();
    expect((await t.app.inject({ method: 'POST', url: `/v1/approvals/${decided.approval_id}/reject`, headers: bearer(a.ownerToken) })).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  const as = (who: OnboardedUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { ...bearer(who.ownerToken), accept: 'application/json' }, ...(payload ? { payload } : {}) });

  it('keys: B cannot read, change or revoke A’s key', async () => {
    expectError(await as(b, 'PATCH', `/v1/api-keys/${keyId}`, { name: 'robada', per_tx_limit_ars: 1 }), 404, 'NOT_FOUND');
    expectError(await as(b, 'DELETE', `/v1/api-keys/${keyId}`), 404, 'NOT_FOUND');
    const mine = (await as(a, 'GET', '/v1/api-keys')).json().api_keys as { id: string; name: string; per_tx_limit_ars: number }[];
    expect(mine.find((k) => k.id === keyId)).toMatchObject({ name: 'compras', per_tx_limit_ars: 0 });
    expect(((await as(b, 'GET', '/v1/api-keys')).json().api_keys as { id: string }[]).map((k) => k.id)).not.toContain(keyId);
  });

  it('OAuth agents: B cannot change or revoke the agent an app became for A; its token keeps working', async () => {
    const app = await connectApp(t.app, a);
    const agentId = app.agent.id as string;
    expectError(await as(b, 'PATCH', `/v1/api-keys/${agentId}`, { scopes: [] }), 404, 'NOT_FOUND');
    expectError(await as(b, 'DELETE', `/v1/api-keys/${agentId}`), 404, 'NOT_FOUND');
    const listed = await mcp(t.app, app.access_token);
    expect(listed.statusCode).toBe(200);
    expect(JSON.stringify(listed.json())).toContain('get_balance');
  });

  it('payouts: B cannot read A’s payout, its receipt in any form, or cancel it (404, not 409)', async () => {
    expectError(await as(b, 'GET', `/v1/withdraws/${pending.id}`), 404, 'NOT_FOUND');
    expectError(await as(b, 'GET', `/v1/transfers/${pending.id}`), 404, 'NOT_FOUND');
    for (const format of ['json', 'html', 'pdf']) {
      const r = await as(b, 'GET', `/v1/withdraws/${pending.id}/receipt?format=${format}`);
      expect(r.statusCode, format).toBe(404);
      expect(r.body, format).not.toContain('de Ana');
    }
    // A's own cancel of a payout that is not `approved` is 409; B's must not tell the id exists.
    const own = await as(a, 'POST', `/v1/withdraws/${pending.id}/cancel`);
    expectError(own, 409, 'PAYOUT_NOT_CANCELABLE');
    // Waiting for approval, it is rejected rather than canceled: the answer says where.
    expect(own.json().message).toContain(`/v1/approvals/${pending.approval_id}/reject`);
    expectError(await as(b, 'POST', `/v1/withdraws/${pending.id}/cancel`), 404, 'NOT_FOUND');
    expect(((await as(b, 'GET', '/v1/withdraws')).json().withdraws as { id: string }[]).map((w) => w.id)).not.toContain(pending.id);
  });

  it('approvals: B cannot read or decide A’s approvals, pending or decided (404, not 409)', async () => {
    expectError(await as(b, 'GET', `/v1/approvals/${pending.approval_id}`), 404, 'NOT_FOUND');
    expectError(await as(b, 'POST', `/v1/approvals/${pending.approval_id}/approve`), 404, 'NOT_FOUND');
    expectError(await as(b, 'POST', `/v1/approvals/${pending.approval_id}/reject`), 404, 'NOT_FOUND');
    expectError(await as(b, 'POST', `/v1/approvals/${decided.approval_id}/approve`), 404, 'NOT_FOUND');
    expectError(await as(b, 'POST', `/v1/approvals/${decided.approval_id}/reject`), 404, 'NOT_FOUND');
    expect(((await as(b, 'GET', '/v1/approvals')).json().approvals as { id: string }[]).map((x) => x.id)).not.toContain(pending.approval_id);
    const still = await as(a, 'GET', `/v1/approvals/${pending.approval_id}`);
    expect(still.json()).toMatchObject({ id: pending.approval_id, status: 'pending' });
    expect((await as(a, 'GET', `/v1/withdraws/${pending.id}`)).json().status).toBe('pending_approval');
  });

  it("A's activity and history show nothing B tried", async () => {
    const activity = (await as(a, 'GET', '/v1/activity')).json();
    expect(JSON.stringify(activity)).not.toContain(b.id);
    expect(JSON.stringify((await as(b, 'GET', '/v1/activity')).json())).not.toContain(pending.id);
  });
});
