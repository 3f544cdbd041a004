import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, EXTERNAL_CBU, PASSWORD, setThresholds, startTestApp, withdraw, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { mcpCall, mcpOutcome } from '../../../test/owner-control-kit.js';

interface State {
  approvals: string;
  payouts: string;
  money: string;
  pause: string;
  limits: string;
}

/** Reads `event: state` messages and `: ping` comments off a fetch-streamed text/event-stream. */
async function openStream(url: string, token: string) {
  const ctl = new AbortController();
  const res = await fetch(url, { headers: bearer(token), signal: ctl.signal });
  const states: State[] = [];
  let pings = 0;
  let buffer = '';
  let ended = false;
  const done = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (block.startsWith(': ping')) pings++;
          const data = /^data: (.*)$/m.exec(block);
          if (/^event: state$/m.test(block) && data) states.push(JSON.parse(data[1]!) as State);
        }
      }
    } catch {
      /* aborted */
    }
    ended = true;
  })();
  return { res, states, pings: () => pings, ended: () => ended, close: async () => (ctl.abort(), await done) };
}

async function until<T>(what: () => T | undefined | false, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = what();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('GET /v1/events/stream: the dashboard’s live updates', () => {
  let t: TestApp;
  let base: string;
  let owner: OnboardedUser;

  beforeAll(async () => {
    t = await startTestApp({ env: { LIVE_POLL_MS: '200', LIVE_HEARTBEAT_MS: '150' } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    owner = await createOnboardedUser(t.app, { name: 'Ana', fundArs: 500_000 });
  });
  afterAll(async () => {
    // fetch's pool may hold a connection it opened and never sent a request on; the server would wait for it.
    t.app.server.closeAllConnections();
    await t.close();
  });

  it('is for the owner only', async () => {
    const none = await fetch(`${base}/v1/events/stream`);
    expect(none.status).toBe(401);
    await none.body?.cancel();
    const agent = await fetch(`${base}/v1/events/stream`, { headers: bearer(owner.agentToken) });
    expect(agent.status).toBe(403);
    expect((await agent.json()).error).toBe('OWNER_SESSION_REQUIRED');
  });

  it('sends the state at once, then only what changed: a payout held for approval, a decision, the pause', async () => {
    const s = await openStream(`${base}/v1/events/stream`, owner.ownerToken);
    expect(s.res.status).toBe(200);
    expect(s.res.headers.get('content-type')).toContain('text/event-stream');
    const first = await until(() => s.states[0]);

    const held = await withdraw(t.app, owner.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU });
    expect(held.statusCode).toBe(202);
    const second = await until(() => s.states.find((x) => x.approvals !== first.approvals));
    expect(second.payouts).not.toBe(first.payouts);
    expect(second.pause).toBe(first.pause);

    await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(owner.ownerToken) });
    await until(() => s.states.find((x) => x.pause !== first.pause));
    await t.app.inject({ method: 'POST', url: '/v1/payouts/resume', headers: bearer(owner.ownerToken) });
    await t.app.inject({ method: 'POST', url: `/v1/approvals/${held.json().approval_id}/reject`, headers: bearer(owner.ownerToken) });
    const decided = await until(() => s.states.find((x) => x.approvals === first.approvals && x.pause === first.pause));
    expect(decided.payouts).not.toBe(second.payouts);

    // Idle: once settled (three heartbeats without a state), heartbeats only and no state repeated.
    for (;;) {
      const before = s.states.length;
      const pings = s.pings();
      await until(() => s.pings() >= pings + 3);
      if (s.states.length === before) break;
    }
    const count = s.states.length;
    const pings = s.pings();
    await until(() => s.pings() >= pings + 3);
    expect(s.states.length).toBe(count);
    await s.close();
  });

  it('a change of limits is sent, whether the owner put them or approved a proposal', async () => {
    const s = await openStream(`${base}/v1/events/stream`, owner.ownerToken);
    const first = await until(() => s.states[0]);
    const before = (await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(owner.ownerToken) })).json();
    const limits = { per_tx_limit_ars: 90_000, daily_limit_ars: 200_000, monthly_limit_ars: 0, whitelist_cbus: [], require_approval_above_ars: 50_000 };
    await setThresholds(t.app, owner.ownerToken, limits);
    const second = await until(() => s.states.find((x) => x.limits !== first.limits), 1_000);
    expect(second.payouts).toBe(first.payouts);

    const proposed = mcpOutcome(await mcpCall(t.app, owner.apiKey, 'propose_threshold_change', { daily_limit_ars: 250_000 }));
    expect(proposed.body).toMatchObject({ status: 'pending' });
    const approved = await t.app.inject({ method: 'POST', url: `/v1/approvals/${String(proposed.body.approval_id)}/approve`, headers: bearer(owner.ownerToken) });
    expect(approved.statusCode).toBe(200);
    await until(() => s.states.find((x) => x.limits !== second.limits && x.limits !== first.limits), 1_000);

    await setThresholds(t.app, owner.ownerToken, before); // as they were, for the cases after this one
    await s.close();
  });

  it('a change of limits on this node wakes the stream at once, not at the slow poll', async () => {
    const slow = await startTestApp({ env: { LIVE_POLL_MS: '600000', LIVE_HEARTBEAT_MS: '150' } });
    const slowBase = await slow.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const u = await createOnboardedUser(slow.app, { fundArs: 100 });
      const s = await openStream(`${slowBase}/v1/events/stream`, u.ownerToken);
      const first = await until(() => s.states[0]);
      await setThresholds(slow.app, u.ownerToken, { per_tx_limit_ars: 1, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 0 });
      await until(() => s.states.find((x) => x.limits !== first.limits), 3_000);
      await s.close();
    } finally {
      slow.app.server.closeAllConnections();
      await slow.close();
    }
  });

  it('a change another node made (no event on this one) arrives with the slow poll', async () => {
    const s = await openStream(`${base}/v1/events/stream`, owner.ownerToken);
    const first = await until(() => s.states[0]);
    // Written straight to the store, as another node sharing the database would.
    await t.app.ctx.store.db.insertInto('payout_pauses').values({ user_id: owner.id, paused_at: new Date().toISOString() }).execute();
    await until(() => s.states.find((x) => x.pause !== first.pause), 3_000);
    await t.app.ctx.store.db.deleteFrom('payout_pauses').where('user_id', '=', owner.id).execute();
    const paused = s.states.length;
    const changed = await t.app.ctx.store.db.updateTable('thresholds').set({ daily_limit: 1 }).where('user_id', '=', owner.id).executeTakeFirst();
    expect(Number(changed.numUpdatedRows)).toBe(1); // the case before left the owner a stored row
    await until(() => s.states.slice(paused).find((x) => x.limits !== first.limits), 3_000);
    await s.close();
  });

  it('another user’s changes are not sent', async () => {
    const s = await openStream(`${base}/v1/events/stream`, owner.ownerToken);
    await until(() => s.states[0]);
    const other = await createOnboardedUser(t.app, { fundArs: 200_000 });
    expect((await withdraw(t.app, other.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU })).statusCode).toBe(202);
    await until(() => s.pings() >= 3);
    expect(s.states).toHaveLength(1);
    await s.close();
  });

  // Runs last: it moves the shared clock past every token issued so far.
  it('ends when the session it was opened with expires, and sends nothing after', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { email: owner.email, password: PASSWORD } });
    const s = await openStream(`${base}/v1/events/stream`, login.json().token);
    expect(s.res.status).toBe(200);
    await until(() => s.states[0]);
    t.clock.advance(t.config.jwtExpirySeconds * 1000 + 1000);
    // A change of this owner's, made by an agent with a fresh token, after the stream's session ended.
    const agent = await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: owner.apiKey } });
    expect((await withdraw(t.app, agent.json().token, { amount_ars: 60_000, destination: EXTERNAL_CBU })).statusCode).toBe(202);
    await until(() => s.ended(), 3_000);
    expect(s.states).toHaveLength(1);
    await s.close();
  });
});
