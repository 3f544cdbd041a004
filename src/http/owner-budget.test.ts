import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, expectError, EXTERNAL_CBU, PASSWORD, startTestApp, withdraw, type TestApp } from '../../test/helpers.js';

/**
 * D35: the contract's 60 a minute is the agents'. An agent that loops spends its own budget and nothing of the
 * owner's: the owner can still log in, look, pause, revoke and decide.
 */
describe("the owner's budget is the owner's (D35)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '60', OWNER_RATE_LIMIT_PER_MINUTE: '600', SAFETY_ACTIONS_PER_MINUTE: '120' } });
  });
  afterAll(() => t.close());

  it('an agent at 80 requests a minute: the owner logs in, lists payouts, approves, pauses and revokes; the agent keeps getting 429', async () => {
    const u = await createOnboardedUser(t.app, { fundArs: 200_000 });
    // A payout that waits for the owner, asked before the flood.
    const held = await withdraw(t.app, u.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU }, 'held-before-flood');
    expect(held.statusCode).toBe(202);
    const agentStatuses: number[] = [];
    const agent = async (n: number) => {
      for (let i = 0; i < n; i++) agentStatuses.push((await t.app.inject({ method: 'GET', url: '/v1/withdraws', headers: bearer(u.agentToken) })).statusCode);
    };
    await agent(80);
    expect(agentStatuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20);

    const login = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { email: u.email, password: PASSWORD } });
    expect(login.statusCode).toBe(200);
    const owner = bearer(login.json().token);
    expect((await t.app.inject({ method: 'GET', url: '/v1/withdraws', headers: owner })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/v1/payouts/pause', headers: owner })).statusCode).toBe(200);
    const approved = await t.app.inject({ method: 'POST', url: `/v1/approvals/${held.json().approval_id}/approve`, headers: owner });
    expect(approved.statusCode).toBe(200);
    await agent(10);
    const paused = await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: owner });
    expect(paused.statusCode).toBe(200);
    expect(paused.json().paused).toBe(true);
    const revoked = await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${u.apiKeyId}`, headers: owner });
    expect(revoked.statusCode).toBe(204);
    // The agent is refused: over its budget, and now revoked (its failures count against its address, not the owner).
    await agent(10);
    expect(agentStatuses.slice(-10).every((s) => s === 429 || s === 401)).toBe(true);
    expect((await t.app.inject({ method: 'POST', url: '/v1/payouts/resume', headers: owner })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/v1/withdraws', headers: owner })).statusCode).toBe(200);
  });

  it("the safety actions have an abuse ceiling of their own, which the dashboard's reads do not spend", async () => {
    const s = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '60', OWNER_RATE_LIMIT_PER_MINUTE: '20', SAFETY_ACTIONS_PER_MINUTE: '6' } });
    try {
      const u = await createOnboardedUser(s.app);
      const owner = bearer(u.ownerToken);
      // The owner's reads spend the owner's budget ...
      const reads: number[] = [];
      for (let i = 0; i < 21; i++) reads.push((await s.app.inject({ method: 'GET', url: '/v1/withdraws', headers: owner })).statusCode);
      expect(reads.at(-1)).toBe(429);
      expectError(await s.app.inject({ method: 'GET', url: '/v1/withdraws', headers: owner }), 429, 'RATE_LIMIT_EXCEEDED');
      // ... and the stop still works, up to its own ceiling.
      const stops: number[] = [];
      for (let i = 0; i < 7; i++) stops.push((await s.app.inject({ method: 'POST', url: i % 2 ? '/v1/payouts/resume' : '/v1/payouts/pause', headers: owner })).statusCode);
      expect(stops).toEqual([200, 200, 200, 200, 200, 200, 429]);
    } finally {
      await s.close();
    }
  });
});
