import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, expectError, EXTERNAL_CBU, setThresholds, startNodes, startTestApp, withdraw } from '../../../test/helpers.js';
import type { BankRail } from '../rail/rail.port.js';

/** Every transfer started toward the rail, with when it started (this process's clock) and which node started it. */
interface Sent {
  reference: string;
  at: number;
}

/** Wraps the rail so every submission is recorded before it is sent; the list is shared by every node. */
function recording(sent: Sent[]) {
  return (rail: BankRail): BankRail =>
    Object.assign(Object.create(rail) as BankRail, {
      submitTransfer: (req: Parameters<BankRail['submitTransfer']>[0]) => {
        sent.push({ reference: req.reference, at: performance.now() });
        return rail.submitTransfer(req);
      },
    });
}

const post = (app: FastifyInstance, url: string, token: string) => app.inject({ method: 'POST', url, headers: bearer(token) });

async function referencesOf(app: FastifyInstance, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await app.ctx.store.db.selectFrom('payouts').select(['id', 'rail_reference']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.rail_reference]));
}

/**
 * D36: once the pause has answered, nothing but what it lists as `in_flight` is started toward the rail, whatever
 * was racing it: new payouts, approvals, the follow-up job, on one node or two.
 */
describe('the emergency stop is a barrier (D36)', () => {
  it('a pause racing 40 payouts and 20 approvals: after the acknowledgement only `in_flight` reaches the rail; resume sends the rest', async () => {
    const sent: Sent[] = [];
    const onPostgres = !!process.env.TEST_DATABASE_URL;
    const { nodes, clock, close } = await startNodes(onPostgres ? 2 : 1, { deps: { rail: recording(sent) } });
    try {
      const [a, b] = [nodes[0]!, nodes[nodes.length - 1]!];
      const u = await createOnboardedUser(a, { fundArs: 1_000_000 });
      await setThresholds(a, u.ownerToken, { per_tx_limit_ars: 0, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 1000 });
      const held = await Promise.all(Array.from({ length: 20 }, (_, i) => withdraw(a, u.agentToken, { amount_ars: 2000, destination: EXTERNAL_CBU }, `held-${i}`)));
      expect(held.every((r) => r.statusCode === 202)).toBe(true);
      sent.length = 0;

      const payouts = Array.from({ length: 40 }, (_, i) => withdraw(i % 2 ? a : b, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, `race-${i}`));
      const approvals = held.map((h, i) => post(i % 2 ? b : a, `/v1/approvals/${h.json().approval_id}/approve`, u.ownerToken));
      await new Promise((r) => setTimeout(r, 5));
      const pause = await post(a, '/v1/payouts/pause', u.ownerToken);
      const ackedAt = performance.now();
      expect(pause.statusCode).toBe(200);
      const inFlight = new Set<string>(pause.json().in_flight.map((p: { id: string }) => p.id));
      const answers = await Promise.all(payouts);
      const decided = await Promise.all(approvals);

      // Everyone got an answer that tells the truth: sent, denied while paused, refused approval while paused, or
      // (an agent's request that waited past the lock timeout behind its own others) 503 and nothing kept.
      for (const r of answers) expect([201, 422, 503]).toContain(r.statusCode);
      for (const r of answers.filter((x) => x.statusCode === 422)) expect(r.json().reasons).toEqual(['payouts_paused']);
      for (const r of decided) expect([200, 409]).toContain(r.statusCode);
      const kept = await a.ctx.store.db.selectFrom('payouts').select('idempotency_key').where('user_id', '=', u.id).execute();
      const keys = new Set(kept.map((r) => r.idempotency_key));
      for (const [i, r] of answers.entries()) expect([r.statusCode, keys.has(`race-${i}`)]).toEqual([r.statusCode, r.statusCode === 201]);
      const inFlightRefs = new Set((await referencesOf(a, [...inFlight])).values());
      const late = sent.filter((s) => s.at > ackedAt && !inFlightRefs.has(s.reference));
      expect(late).toEqual([]);

      // While paused, the follow-up job starts nothing new either, on any node.
      const before = sent.length;
      clock.advance(120_000);
      for (const n of nodes) await n.jobs.payoutFollowUp!.runOnce();
      expect(sent.slice(before).filter((s) => !inFlightRefs.has(s.reference))).toEqual([]);

      // Resume: every payout still approved is sent, and all end up at the bank.
      expect((await post(a, '/v1/payouts/resume', u.ownerToken)).statusCode).toBe(200);
      clock.advance(1_000);
      for (const n of nodes) await n.jobs.payoutFollowUp!.runOnce();
      const db = a.ctx.store.db;
      const rows = await db.selectFrom('payouts').select(['status']).where('user_id', '=', u.id).where('status', 'in', ['approved', 'pending_approval']).execute();
      expect(rows.filter((r) => r.status === 'approved')).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a submission whose sender died before the rail answered stays in flight while paused, and goes out once after resume', async () => {
    const sent: Sent[] = [];
    let stall = true;
    // The first submission of each payout never comes back while `stall`: what a crash between the send and the
    // answer leaves behind. Whether the bank got it cannot be told, so it is treated as on its way.
    const stalling = (rail: BankRail): BankRail =>
      Object.assign(Object.create(rail) as BankRail, {
        submitTransfer: async (req: Parameters<BankRail['submitTransfer']>[0]) => {
          if (stall) return new Promise<never>(() => undefined);
          sent.push({ reference: req.reference, at: performance.now() });
          return rail.submitTransfer(req);
        },
      });
    const t = await startTestApp({ deps: { rail: stalling } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1_000 });
      void withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, 'stalled');
      const decided = async () => t.app.ctx.store.db.selectFrom('payouts').select(['id']).where('user_id', '=', u.id).execute();
      for (let i = 0; (await decided()).length < 1; i++) {
        if (i > 200) throw new Error('the payout was not decided');
        await new Promise((r) => setTimeout(r, 20));
      }
      const id = (await decided())[0]!.id;
      const paused = await post(t.app, '/v1/payouts/pause', u.ownerToken);
      expect(paused.json().in_flight.map((p: { id: string }) => p.id)).toEqual([id]);
      stall = false;

      // The follow-up finds the rail does not know it: neither sent again nor parked, still listed, not cancelable.
      for (const _ of [1, 2]) {
        t.clock.advance(60_000);
        await t.app.jobs.payoutFollowUp!.runOnce();
      }
      expect(sent).toEqual([]);
      const view = async () => (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(u.ownerToken) })).json();
      expect(await view()).toMatchObject({ status: 'approved', waiting_for_resume: false });
      expect((await t.app.inject({ method: 'GET', url: '/v1/payouts/pause', headers: bearer(u.ownerToken) })).json().in_flight.map((p: { id: string }) => p.id)).toEqual([id]);
      expectError(await post(t.app, `/v1/withdraws/${id}/cancel`, u.ownerToken), 409, 'PAYOUT_NOT_CANCELABLE');

      // Resume: sent again with the same reference, once.
      expect((await post(t.app, '/v1/payouts/resume', u.ownerToken)).statusCode).toBe(200);
      t.clock.advance(60_000);
      await t.app.jobs.payoutFollowUp!.runOnce();
      expect(sent.map((x) => x.reference)).toEqual([...(await referencesOf(t.app, [id])).values()]);
      expect((await view()).status).toMatch(/submitted|confirmed/);
    } finally {
      await t.close();
    }
  });

  it('a payout the rail turned away while not yet paused is resent by the follow-up; turned away again, its first send is still in doubt', async () => {
    // The first submission hangs (its sender died), the follow-up's resend is turned away (BIND's 429): the first
    // one may still be at the bank, so the payout is not held as if nothing had been sent.
    const tries = new Map<string, number>();
    const flaky = (rail: BankRail): BankRail =>
      Object.assign(Object.create(rail) as BankRail, {
        submitTransfer: async (req: Parameters<BankRail['submitTransfer']>[0]) => {
          const n = (tries.get(req.reference) ?? 0) + 1;
          tries.set(req.reference, n);
          if (n === 1) return new Promise<never>(() => undefined);
          if (n === 2) return { kind: 'turned_away' as const, message: 'Too Many Requests' };
          return rail.submitTransfer(req);
        },
      });
    const t = await startTestApp({ deps: { rail: flaky } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1_000 });
      void withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, 'in-doubt');
      for (let i = 0; tries.size < 1; i++) {
        if (i > 200) throw new Error('the payout was not sent');
        await new Promise((r) => setTimeout(r, 20));
      }
      t.clock.advance(60_000);
      await t.app.jobs.payoutFollowUp!.runOnce();
      expect([...tries.values()]).toEqual([2]);
      const [row] = await t.app.ctx.store.db.selectFrom('payouts').select('id').where('user_id', '=', u.id).execute();
      const paused = await post(t.app, '/v1/payouts/pause', u.ownerToken);
      expect(paused.json().in_flight.map((p: { id: string }) => p.id)).toEqual([row!.id]);
      t.clock.advance(60_000);
      await t.app.jobs.payoutFollowUp!.runOnce();
      expect([...tries.values()]).toEqual([2]);
      expectError(await post(t.app, `/v1/withdraws/${row!.id}/cancel`, u.ownerToken), 409, 'PAYOUT_NOT_CANCELABLE');
      expect((await post(t.app, '/v1/payouts/resume', u.ownerToken)).statusCode).toBe(200);
      t.clock.advance(60_000);
      await t.app.jobs.payoutFollowUp!.runOnce();
      expect([...tries.values()]).toEqual([3]);
    } finally {
      await t.close();
    }
  });

  it('payouts the rail turned away wait while paused, are shown as such, can be canceled, and go out after resume', async () => {
    const sent: Sent[] = [];
    let busy = true;
    // While `busy` the rail turns every submission away without acting on it (BIND's 429): nothing is at the bank.
    const turningAway = (rail: BankRail): BankRail =>
      Object.assign(Object.create(rail) as BankRail, {
        submitTransfer: async (req: Parameters<BankRail['submitTransfer']>[0]) => {
          if (busy) return { kind: 'turned_away' as const, message: 'Too Many Requests' };
          sent.push({ reference: req.reference, at: performance.now() });
          return rail.submitTransfer(req);
        },
      });
    const t = await startTestApp({ deps: { rail: turningAway } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1_000 });
      for (const i of [1, 2, 3]) expect((await withdraw(t.app, u.agentToken, { amount_ars: 10 * i, destination: EXTERNAL_CBU }, `stalled-${i}`)).json()).toMatchObject({ status: 'approved' });
      const decided = async () => t.app.ctx.store.db.selectFrom('payouts').select(['id', 'idempotency_key']).where('user_id', '=', u.id).orderBy('idempotency_key').execute();
      const paused = await post(t.app, '/v1/payouts/pause', u.ownerToken);
      // Turned away, they are no longer claimed: not in flight, nothing of them is at the bank.
      expect(paused.json().in_flight).toEqual([]);
      busy = false;
      const ids = (await decided()).map((r) => r.id);
      // The follow-up finds the rail never got them, and parks them instead of sending them.
      t.clock.advance(60_000);
      await t.app.jobs.payoutFollowUp!.runOnce();
      expect(sent).toEqual([]);
      const view = async (id: string) => (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(u.ownerToken) })).json();
      for (const id of ids) expect(await view(id)).toMatchObject({ status: 'approved', waiting_for_resume: true });
      expect((await t.app.inject({ method: 'GET', url: '/v1/payouts/pause', headers: bearer(u.ownerToken) })).json().in_flight).toEqual([]);

      // The owner cancels one: failed, its usage given back; its key keeps the answer its request was given.
      expectError(await post(t.app, `/v1/withdraws/${ids[0]}/cancel`, u.agentToken), 403, 'OWNER_SESSION_REQUIRED');
      const canceled = await post(t.app, `/v1/withdraws/${ids[0]}/cancel`, u.ownerToken);
      expect(canceled.statusCode).toBe(200);
      expect(canceled.json()).toMatchObject({ status: 'failed', failure_reason: 'canceled_by_owner', waiting_for_resume: false });
      expectError(await post(t.app, `/v1/withdraws/${ids[0]}/cancel`, u.ownerToken), 409, 'PAYOUT_NOT_CANCELABLE');
      expectError(await post(t.app, '/v1/withdraws/wd_nope/cancel', u.ownerToken), 404, 'NOT_FOUND');
      const replay = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, 'stalled-1');
      expect([replay.statusCode, replay.json().id, replay.json().status, replay.headers['idempotent-replayed']]).toEqual([201, ids[0], 'approved', 'true']);
      expect(await t.app.ctx.store.db.selectFrom('payouts').select('id').where('user_id', '=', u.id).execute()).toHaveLength(3);

      // Another user cannot cancel mine.
      const other = await createOnboardedUser(t.app);
      expectError(await post(t.app, `/v1/withdraws/${ids[1]}/cancel`, other.ownerToken), 404, 'NOT_FOUND');

      // Resume: the other two go out, once each.
      expect((await post(t.app, '/v1/payouts/resume', u.ownerToken)).statusCode).toBe(200);
      await t.app.jobs.payoutFollowUp!.runOnce();
      const refs = await referencesOf(t.app, ids.slice(1));
      expect(sent.map((s) => s.reference).sort()).toEqual([...refs.values()].sort());
      for (const id of ids.slice(1)) expect((await view(id)).status).toMatch(/submitted|confirmed/);
      expectError(await post(t.app, `/v1/withdraws/${ids[1]}/cancel`, u.ownerToken), 409, 'PAYOUT_NOT_CANCELABLE');
      // The usage of the canceled one was given back: only 20 + 30 count today.
      const usage = await t.app.ctx.store.db.selectFrom('payout_usage').select(['period', 'amount']).where('subject', '=', `u:${u.id}`).execute();
      expect(usage.every((r) => Number(r.amount) === 5000)).toBe(true);
    } finally {
      await t.close();
    }
  });
  it('a submission the rail left unanswered stays in flight while paused: never shown as waiting nor canceled, since the rail may still act on it', async () => {
    // The rail takes the first submission but does not answer in time, and acts on it later (a bank behind a
    // timeout): meanwhile it says it does not know the reference.
    const late: Parameters<BankRail['submitTransfer']>[0][] = [];
    const sent: Sent[] = [];
    let real!: BankRail;
    const slow = (rail: BankRail): BankRail => {
      real = rail;
      return Object.assign(Object.create(rail) as BankRail, {
        submitTransfer: async (req: Parameters<BankRail['submitTransfer']>[0]) => {
          sent.push({ reference: req.reference, at: performance.now() });
          if (!late.some((r) => r.reference === req.reference)) {
            late.push(req);
            return { kind: 'unknown' as const, message: 'no answer within 10000 ms' };
          }
          return rail.submitTransfer(req);
        },
      });
    };
    const t = await startTestApp({ deps: { rail: slow } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1_000 });
      const res = await withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU }, 'unanswered');
      expect(res.json()).toMatchObject({ status: 'approved' });
      const id = res.json().id as string;
      const paused = await post(t.app, '/v1/payouts/pause', u.ownerToken);
      expect(paused.json().in_flight.map((p: { id: string }) => p.id)).toEqual([id]);

      // The follow-up asks the rail, which does not know the reference yet: it is neither sent again nor parked.
      t.clock.advance(60_000);
      await t.app.jobs.payoutFollowUp!.runOnce();
      expect(sent).toHaveLength(1);
      const view = async () => (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(u.ownerToken) })).json();
      expect(await view()).toMatchObject({ status: 'approved', waiting_for_resume: false });
      expect((await t.app.inject({ method: 'GET', url: '/v1/payouts/pause', headers: bearer(u.ownerToken) })).json().in_flight.map((p: { id: string }) => p.id)).toEqual([id]);
      expectError(await post(t.app, `/v1/withdraws/${id}/cancel`, u.ownerToken), 409, 'PAYOUT_NOT_CANCELABLE');

      // The bank acts on the request it had: the follow-up finds the transfer and the payout is what the money did.
      expect((await real.submitTransfer(late[0]!)).kind).toBe('accepted');
      t.clock.advance(60_000);
      await t.app.jobs.payoutFollowUp!.runOnce();
      await t.app.jobs.railSettlement!.runOnce();
      t.clock.advance(60_000);
      await t.app.jobs.payoutFollowUp!.runOnce();
      expect(await view()).toMatchObject({ status: 'confirmed', failure_reason: null });
      expect(sent).toHaveLength(1);
      const balance = (await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json();
      expect(balance.available).toBe('900.00');
      const usage = await t.app.ctx.store.db.selectFrom('payout_usage').select('amount').where('subject', '=', `u:${u.id}`).execute();
      expect(usage.map((r) => Number(r.amount))).toEqual([10_000, 10_000]);
    } finally {
      await t.close();
    }
  });
  it('a submission the rail turned away left nothing at the bank: held while paused, and the owner may cancel it', async () => {
    // The rail turns every submission away without acting on it (BIND's 429): nothing can move.
    const sent: Sent[] = [];
    const busy = (rail: BankRail): BankRail =>
      Object.assign(Object.create(rail) as BankRail, {
        submitTransfer: async (req: Parameters<BankRail['submitTransfer']>[0]) => {
          sent.push({ reference: req.reference, at: performance.now() });
          return { kind: 'turned_away' as const, message: 'Too Many Requests' };
        },
      });
    const t = await startTestApp({ deps: { rail: busy } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1_000 });
      const res = await withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU }, 'turned-away');
      expect(res.json()).toMatchObject({ status: 'approved' });
      const id = res.json().id as string;
      await post(t.app, '/v1/payouts/pause', u.ownerToken);

      // The follow-up finds the rail never got it, and holds it rather than send it.
      t.clock.advance(60_000);
      await t.app.jobs.payoutFollowUp!.runOnce();
      expect(sent).toHaveLength(1);
      const view = async () => (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(u.ownerToken) })).json();
      expect(await view()).toMatchObject({ status: 'approved', waiting_for_resume: true });
      expect((await t.app.inject({ method: 'GET', url: '/v1/payouts/pause', headers: bearer(u.ownerToken) })).json().in_flight).toEqual([]);
      expect((await post(t.app, `/v1/withdraws/${id}/cancel`, u.ownerToken)).statusCode).toBe(200);
      expect(await view()).toMatchObject({ status: 'failed', failure_reason: 'canceled_by_owner' });
      const balance = (await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json();
      expect(balance.available).toBe('1000.00');
    } finally {
      await t.close();
    }
  });
});
