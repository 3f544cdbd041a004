import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createOnboardedUser,
  eventTypes,
  expectError,
  EXTERNAL_CBU,
  settle,
  startTestApp,
  withdraw,
  type OnboardedUser,
  type TestApp,
} from '../../../test/helpers.js';
import type { BankRail } from '../rail/rail.port.js';

describe('approvals through the dashboard channel (D22, D23)', () => {
  let t: TestApp;
  let a: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp();
    a = await createOnboardedUser(t.app, { name: 'Ana', fundArs: 1_000_000 });
  });
  afterAll(() => t.close());

  const pendingPayout = async (amount = 60_000) => {
    const res = await withdraw(t.app, a.agentToken, { amount_ars: amount, destination: EXTERNAL_CBU, note: 'proveedor' });
    expect(res.statusCode).toBe(202);
    return res.json() as { id: string; approval_id: string };
  };
  const decide = (id: string, verdict: 'approve' | 'reject', token = a.ownerToken) =>
    t.app.inject({ method: 'POST', url: `/v1/approvals/${id}/${verdict}`, headers: bearer(token) });
  const payout = async (id: string) => (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(a.ownerToken) })).json();

  it('lists pending approvals first with what is asked', async () => {
    const p = await pendingPayout(70_000.5);
    const res = await t.app.inject({ method: 'GET', url: '/v1/approvals', headers: bearer(a.agentToken) });
    expect(res.statusCode).toBe(200);
    const first = res.json().approvals[0];
    expect(first).toMatchObject({
      id: p.approval_id,
      kind: 'payout',
      status: 'pending',
      expires_in: 300,
      api_key_name: 'default',
      payout: {
        id: p.id,
        amount_ars: 70_000.5,
        destination: EXTERNAL_CBU,
        destination_kind: 'CBU',
        recipient_name: 'Titular cuenta 5201',
        reasons: ['above_approval_threshold'],
        note: 'proveedor',
        status: 'pending_approval',
      },
      threshold_change: null,
    });
    await decide(p.approval_id, 'reject');
  });

  it('approve → approved → submitted at once → confirmed, with events', async () => {
    const p = await pendingPayout();
    const res = await decide(p.approval_id, 'approve');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'approved', decided_via: 'dashboard' });
    expect((await payout(p.id)).status).toBe('submitted');
    await settle(t);
    const done = await payout(p.id);
    expect(done.status).toBe('confirmed');
    expect(await eventTypes(t.app, a.id, p.id)).toEqual(['payout.requested', 'payout.approved', 'payout.submitted', 'payout.confirmed']);
  });

  it('reject → rejected with its event; deciding again → 409 APPROVAL_ALREADY_DECIDED', async () => {
    const p = await pendingPayout();
    expect((await decide(p.approval_id, 'reject')).json().status).toBe('rejected');
    const rec = await payout(p.id);
    expect(rec.status).toBe('rejected');
    expect(rec.resolved_at).toBeTruthy();
    expect(await eventTypes(t.app, a.id, p.id)).toEqual(['payout.requested', 'payout.rejected']);
    expectError(await decide(p.approval_id, 'approve'), 409, 'APPROVAL_ALREADY_DECIDED');
  });

  it('approve racing reject: exactly one final state and one event', async () => {
    for (let i = 0; i < 5; i++) {
      const p = await pendingPayout();
      const results = await Promise.all([decide(p.approval_id, 'approve'), decide(p.approval_id, 'reject'), decide(p.approval_id, 'approve')]);
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      for (const r of results.filter((r) => r.statusCode !== 200)) expect(r.json().error).toBe('APPROVAL_ALREADY_DECIDED');
      const events = (await eventTypes(t.app, a.id, p.id)).filter((e) => e === 'payout.approved' || e === 'payout.rejected');
      expect(events).toHaveLength(1);
    }
  });

  it('expires at the deadline: the job expires it with payout.expired; deciding after expiry → 409 APPROVAL_EXPIRED', async () => {
    const p = await pendingPayout();
    t.clock.advance(300_000);
    // Past the deadline, even before the job runs.
    expectError(await decide(p.approval_id, 'approve'), 409, 'APPROVAL_EXPIRED');
    await t.app.jobs.approvalExpiry!.runOnce();
    expect((await payout(p.id)).status).toBe('expired');
    expect(await eventTypes(t.app, a.id, p.id)).toEqual(['payout.requested', 'payout.expired']);
    expectError(await decide(p.approval_id, 'reject'), 409, 'APPROVAL_EXPIRED');
    a.agentToken = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: a.apiKey } })).json().token;
  });

  it('an agent session cannot decide (403); another user’s approval is 404', async () => {
    const p = await pendingPayout();
    expectError(await decide(p.approval_id, 'approve', a.agentToken), 403, 'OWNER_SESSION_REQUIRED');
    const other = await createOnboardedUser(t.app);
    expectError(await decide(p.approval_id, 'approve', other.ownerToken), 404, 'NOT_FOUND');
    expectError(await t.app.inject({ method: 'GET', url: `/v1/approvals/${p.approval_id}`, headers: bearer(other.ownerToken) }), 404, 'NOT_FOUND');
    expectError(await t.app.inject({ method: 'POST', url: `/v1/approvals/${p.approval_id}/approve` }), 401, 'UNAUTHENTICATED');
    expect((await payout(p.id)).status).toBe('pending_approval');
  });
});

describe('crash between approval and submission', () => {
  it('after restart the approved payout is submitted exactly once', async () => {
    // The rail "dies" on submission: the process never learns anything and never writes `submitted`.
    const crashing = (rail: BankRail): BankRail =>
      Object.assign(Object.create(rail) as BankRail, {
        submitTransfer: async () => {
          throw new Error('process crashed');
        },
        getTransfer: async () => {
          throw new Error('process crashed');
        },
        getTransfers: async () => {
          throw new Error('process crashed');
        },
      });
    const first = await startTestApp({ deps: { rail: crashing } });
    const store = first.store;
    const u = await createOnboardedUser(first.app, { fundArs: 100_000 });
    const res = await withdraw(first.app, u.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU });
    const approve = await first.app.inject({ method: 'POST', url: `/v1/approvals/${res.json().approval_id}/approve`, headers: bearer(u.ownerToken) });
    expect(approve.statusCode).toBe(200);
    const row = await first.app.ctx.store.db.selectFrom('payouts').selectAll().where('id', '=', res.json().id).executeTakeFirstOrThrow();
    expect(row.status).toBe('approved');
    await first.app.close();

    const second = await startTestApp({ store });
    try {
      second.clock.set(first.clock.now());
      await settle(second); // past the submission grace: the follow-up job reconciles, then submits
      await settle(second);
      await second.app.jobs.payoutFollowUp!.runOnce();
      const after = await second.app.ctx.store.db.selectFrom('payouts').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      expect(after.status).toBe('confirmed');
      const transfers = await second.app.ctx.store.db.selectFrom('rail_transfers').select('id').where('reference', '=', row.rail_reference).execute();
      expect(transfers).toHaveLength(1);
      expect((await eventTypes(second.app, u.id, row.id)).filter((e) => e === 'payout.submitted')).toHaveLength(1);
    } finally {
      await second.app.close();
      await store.drop();
    }
  });
});

describe('GET /v1/approvals: status filter and paging', () => {
  it('filters by status and pages newest first, each approval once', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1_000_000 });
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) ids.push((await withdraw(t.app, u.agentToken, { amount_ars: 60_000 + i, destination: EXTERNAL_CBU })).json().approval_id);
      for (const id of ids.slice(0, 2)) await t.app.inject({ method: 'POST', url: `/v1/approvals/${id}/reject`, headers: bearer(u.ownerToken) });
      const list = async (q: string) => (await t.app.inject({ method: 'GET', url: `/v1/approvals?${q}`, headers: bearer(u.ownerToken) })).json();
      expect((await list('status=pending')).approvals.map((a: { id: string }) => a.id)).toEqual(ids.slice(2).reverse());
      expect((await list('status=rejected')).approvals).toHaveLength(2);
      const seen: string[] = [];
      let cursor = '';
      for (;;) {
        const page = await list(`limit=3${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...page.approvals.map((a: { id: string }) => a.id));
        if (!page.next_cursor) break;
        cursor = page.next_cursor;
      }
      expect(seen).toEqual([...ids].reverse());
      expectError(await t.app.inject({ method: 'GET', url: '/v1/approvals?limit=101', headers: bearer(u.ownerToken) }), 400, 'INVALID_REQUEST');
      const maybe = await t.app.inject({ method: 'GET', url: '/v1/approvals?status=maybe', headers: bearer(u.ownerToken) });
      expectError(maybe, 400, 'INVALID_REQUEST');
      // A clear 400 names the values it takes.
      expect(maybe.json().message).toBe('querystring.status: must be equal to one of the allowed values (one of pending, approved, rejected, expired)');
      t.clock.advance(301_000);
      expect((await list('status=expired')).approvals).toHaveLength(5);
      expect((await list('status=pending')).approvals).toHaveLength(0);
    } finally {
      await t.close();
    }
  });
});
