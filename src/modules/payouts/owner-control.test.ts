import { describe, expect, it, vi } from 'vitest';
import {
  bearer,
  createOnboardedUser,
  eventTypes,
  expectError,
  EXTERNAL_CBU,
  settle,
  startTestApp,
  withdraw,
} from '../../../test/helpers.js';
import { RailBusyError, type BankRail } from '../rail/rail.port.js';
import { IN_DOUBT_MS, IN_DOUBT_RECHECK_MS } from './payout.lifecycle.js';

const override = (rail: BankRail, methods: Partial<BankRail>): BankRail => Object.assign(Object.create(rail) as BankRail, methods);

/** The promise to owners: no retry pays twice, nothing escapes a re-check (D19, D27, D28). */
describe('owner control under faults', () => {
  it('a slow first request and a retry after five minutes: one payout, and both answers name it (D27)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let resolves = 0;
    const slow = (rail: BankRail) =>
      override(rail, {
        resolve: async (...a: Parameters<BankRail['resolve']>) => {
          if (resolves++ === 0) await gate; // the first request hangs at the rail
          return rail.resolve(...a);
        },
      });
    const t = await startTestApp({ deps: { rail: slow } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      const first = withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU }, 'slow-1');
      await vi.waitFor(() => expect(resolves).toBe(1));
      t.clock.advance(6 * 60 * 1000);
      const retry = await withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU }, 'slow-1');
      expect(retry.statusCode).toBe(201);
      release();
      const late = await first;
      expect(late.statusCode).toBe(201);
      expect(late.json().id).toBe(retry.json().id);
      expect(await t.app.ctx.store.db.selectFrom('payouts').select('id').where('user_id', '=', u.id).execute()).toHaveLength(1);
      expect((await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json().available).toBe('900.00');
    } finally {
      await t.close();
    }
  });

  it('the same key with a different request answers 422 IDEMPOTENCY_KEY_REUSED and creates nothing (D27)', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      expect((await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, 'fp-1')).statusCode).toBe(201);
      for (const body of [
        { amount_ars: 11, destination: EXTERNAL_CBU },
        { amount_ars: 10, destination: '0170099220000067797370' },
        { amount_ars: 10, destination: EXTERNAL_CBU, note: 'other' },
      ]) {
        expectError(await withdraw(t.app, u.agentToken, body, 'fp-1'), 422, 'IDEMPOTENCY_KEY_REUSED');
      }
      expect(await t.app.ctx.store.db.selectFrom('payouts').select('id').where('user_id', '=', u.id).execute()).toHaveLength(1);
      // The same request still replays.
      const again = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, 'fp-1');
      expect(again.headers['idempotent-replayed']).toBe('true');
    } finally {
      await t.close();
    }
  });

  it('KYC turned pending while a payout waits: approving answers 422 with the reason, the attempt fails, no money moves (D28)', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 100_000 });
      const res = await withdraw(t.app, u.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU });
      expect(res.statusCode).toBe(202);
      await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(u.ownerToken), payload: { status: 'pending' } });
      const approve = await t.app.inject({ method: 'POST', url: `/v1/approvals/${res.json().approval_id}/approve`, headers: bearer(u.ownerToken) });
      expectError(approve, 422, 'PAYOUT_DENIED');
      expect(approve.json().reasons).toEqual(['kyc_incomplete']);
      const rec = (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${res.json().id}`, headers: bearer(u.ownerToken) })).json();
      expect(rec).toMatchObject({ status: 'failed', failure_reason: 'kyc_incomplete' });
      expect(await eventTypes(t.app, u.id, rec.id)).toEqual(['payout.requested', 'payout.failed']);
      const apr = (await t.app.inject({ method: 'GET', url: `/v1/approvals/${res.json().approval_id}`, headers: bearer(u.ownerToken) })).json();
      expect(apr).toMatchObject({ status: 'rejected', decided_via: 'policy' });
      await settle(t);
      expect((await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json().available).toBe('100000.00');
      // A second decision finds it decided.
      expectError(
        await t.app.inject({ method: 'POST', url: `/v1/approvals/${res.json().approval_id}/approve`, headers: bearer(u.ownerToken) }),
        409,
        'APPROVAL_ALREADY_DECIDED',
      );
    } finally {
      await t.close();
    }
  });

  it('approving pays the account resolved at request time, even if the alias now points elsewhere (D28)', async () => {
    const t = await startTestApp();
    try {
      const payer = await createOnboardedUser(t.app, { fundArs: 100_000 });
      const first = await createOnboardedUser(t.app);
      const second = await createOnboardedUser(t.app);
      const res = await withdraw(t.app, payer.agentToken, { amount_ars: 60_000, destination: first.alias, destination_kind: 'ALIAS' });
      expect(res.statusCode).toBe(202);
      // The alias is re-pointed to another account while the payout waits.
      await t.app.ctx.store.db.updateTable('rail_accounts').set({ alias: null }).where('cvu', '=', first.cvu).execute();
      await t.app.ctx.store.db.updateTable('rail_accounts').set({ alias: first.alias.toLowerCase() }).where('cvu', '=', second.cvu).execute();
      const approve = await t.app.inject({ method: 'POST', url: `/v1/approvals/${res.json().approval_id}/approve`, headers: bearer(payer.ownerToken) });
      expect(approve.statusCode).toBe(200);
      await settle(t);
      const balance = async (token: string) => (await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(token) })).json().available;
      expect(await balance(first.ownerToken)).toBe('60000.00');
      expect(await balance(second.ownerToken)).toBe('0.00');
    } finally {
      await t.close();
    }
  });

  it('a status-query outage after a lost submission: the payout is submitted exactly once (D19)', async () => {
    let submits = 0;
    let queryDown = true;
    const lossy = (rail: BankRail) =>
      override(rail, {
        submitTransfer: async (req: Parameters<BankRail['submitTransfer']>[0]) => {
          submits++;
          await rail.submitTransfer(req); // it reached the rail; the answer is lost
          return { kind: 'unknown' as const, message: 'timeout' };
        },
        getTransfer: async (ref: string) => {
          if (queryDown) throw new Error('503 from the status API');
          return rail.getTransfer(ref);
        },
        getTransfers: async (refs: readonly string[]) => {
          if (queryDown) throw new Error('503 from the status API');
          return rail.getTransfers(refs);
        },
      });
    const t = await startTestApp({ deps: { rail: lossy } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      const res = await withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU });
      expect(res.json()).toMatchObject({ status: 'approved' });
      for (let i = 0; i < 5; i++) await settle(t);
      expect(submits).toBe(1);
      queryDown = false;
      await settle(t);
      await settle(t);
      expect(submits).toBe(1);
      const rec = (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${res.json().id}`, headers: bearer(u.ownerToken) })).json();
      expect(rec.status).toBe('confirmed');
      expect((await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json().available).toBe('900.00');
    } finally {
      await t.close();
    }
  });

  it('a resend refused while the first send is at the bank but not listed yet: the payout is not failed, and is confirmed once the bank lists it (D19)', async () => {
    let submits = 0;
    let listed = false;
    const booksThenRefuses = (rail: BankRail) =>
      override(rail, {
        // The first send is booked but its answer is lost; the resend meets, say, a gateway's 403.
        submitTransfer: async (req: Parameters<BankRail['submitTransfer']>[0]) => {
          if (submits++ > 0) return { kind: 'rejected' as const, reason: 'invalid_request' as const, message: 'HTTP 403 Forbidden' };
          await rail.submitTransfer(req);
          return { kind: 'unknown' as const, message: 'timeout' };
        },
        // The bank does not list what it booked yet.
        getTransfer: async (reference: string) => (listed ? rail.getTransfer(reference) : null),
        getTransfers: async (references: readonly string[]) => (listed ? rail.getTransfers(references) : new Map()),
      });
    const t = await startTestApp({ deps: { rail: booksThenRefuses } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      const res = await withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU }, 'booked-1');
      expect(res.statusCode).toBe(201);
      const id = res.json().id as string;
      const status = async () => (await t.app.inject({ url: `/v1/withdraws/${id}`, headers: bearer(u.ownerToken) })).json().status;
      await settle(t);
      expect(submits).toBe(2);
      // It used to fail here, give the agent its limits back and invite it to pay again, while the money moved.
      expect(await status()).toBe('approved');
      expect(await eventTypes(t.app, u.id, id)).not.toContain('payout.failed');
      // Not sent again at every pass of the follow-up: asked again after a while.
      await settle(t, 1_000);
      await settle(t, 1_000);
      expect(submits).toBe(2);
      listed = true;
      await settle(t, IN_DOUBT_RECHECK_MS);
      await settle(t);
      expect(await status()).toBe('confirmed');
      expect(submits).toBe(2);
    } finally {
      await t.close();
    }
  });

  it('a resend refused while the bank asks to wait longer than the usual re-ask: asked again when the bank said, not before (D19)', async () => {
    let submits = 0;
    let asks = 0;
    let busyUntil: string | null = null;
    let listed = false;
    const busyBank = (rail: BankRail) =>
      override(rail, {
        submitTransfer: async (req: Parameters<BankRail['submitTransfer']>[0]) => {
          if (submits++ === 0) {
            await rail.submitTransfer(req);
            return { kind: 'unknown' as const, message: 'timeout' };
          }
          // The resend is refused, and from then on the bank answers 503 with a Retry-After of 20 minutes.
          busyUntil = new Date(t.clock.now().getTime() + 20 * 60_000).toISOString();
          return { kind: 'rejected' as const, reason: 'invalid_request' as const, message: 'HTTP 403 Forbidden' };
        },
        getTransfer: async (reference: string) => {
          asks++;
          if (busyUntil && t.clock.now().toISOString() < busyUntil) throw new RailBusyError('HTTP 503', busyUntil);
          return listed ? rail.getTransfer(reference) : null;
        },
        getTransfers: async (references: readonly string[]) => {
          asks++;
          if (busyUntil && t.clock.now().toISOString() < busyUntil) throw new RailBusyError('HTTP 503', busyUntil);
          return listed ? rail.getTransfers(references) : new Map();
        },
      });
    const t = await startTestApp({ deps: { rail: busyBank } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      const res = await withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU }, 'busy-1');
      const id = res.json().id as string;
      const status = async () => (await t.app.inject({ url: `/v1/withdraws/${id}`, headers: bearer(u.ownerToken) })).json().status;
      await settle(t); // the follow-up: not listed, sent again, refused; the bank then asks for 20 minutes
      expect(submits).toBe(2);
      expect(await status()).toBe('approved');
      const row = await t.app.ctx.store.db.selectFrom('payouts').select('next_check_at').where('id', '=', id).executeTakeFirstOrThrow();
      // Not in five minutes, when the bank would turn the question away again: when it said.
      expect(row.next_check_at! >= busyUntil!).toBe(true);
      const asksBefore = asks;
      await settle(t, IN_DOUBT_RECHECK_MS + 1_000);
      expect(asks).toBe(asksBefore);
      expect(submits).toBe(2);
      listed = true;
      await settle(t, 20 * 60_000);
      await settle(t);
      expect(await status()).toBe('confirmed');
      expect(submits).toBe(2);
    } finally {
      await t.close();
    }
  });

  it("a request's own send refused after the follow-up sent the payout meanwhile: the payout stands, not failed (D19)", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let submits = 0;
    const late = (rail: BankRail) =>
      override(rail, {
        submitTransfer: async (req: Parameters<BankRail['submitTransfer']>[0]) => {
          if (submits++ === 0) {
            await gate; // the request's send: its answer, a refusal, comes after the job's send
            return { kind: 'rejected' as const, reason: 'insufficient_funds' as const, message: 'Cuenta con saldo insuficiente' };
          }
          await rail.submitTransfer(req);
          return { kind: 'unknown' as const, message: 'timeout' };
        },
      });
    const t = await startTestApp({ deps: { rail: late } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      const pending = withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU }, 'late-refusal');
      await vi.waitFor(() => expect(submits).toBe(1));
      await settle(t); // past the grace, the job sends it again: the bank books it
      expect(submits).toBe(2);
      release();
      const res = await pending;
      expect(res.statusCode).toBe(201);
      const id = res.json().id as string;
      await settle(t);
      expect((await t.app.inject({ url: `/v1/withdraws/${id}`, headers: bearer(u.ownerToken) })).json().status).toBe('confirmed');
      expect(await eventTypes(t.app, u.id, id)).not.toContain('payout.failed');
    } finally {
      await t.close();
    }
  });

  it('a request whose payout the follow-up job failed meanwhile answers the failure, not a 201 (D19)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let submits = 0;
    const hanging = (rail: BankRail) =>
      override(rail, {
        submitTransfer: async (_req: Parameters<BankRail['submitTransfer']>[0]) => {
          if (submits++ === 0) {
            await gate; // the first submission never reaches the rail; its answer comes late
            return { kind: 'unknown' as const, message: 'timeout' };
          }
          return { kind: 'rejected' as const, reason: 'destination_rejected' as const, message: 'closed account' };
        },
      });
    const t = await startTestApp({ deps: { rail: hanging } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      const pending = withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU }, 'late-1');
      await vi.waitFor(() => expect(submits).toBe(1));
      // Past the grace: the job asks the rail (unknown reference) and sends it again, and that send is refused. The
      // first send may still reach the bank, so the refusal is not final while the bank may yet list it (D19).
      await settle(t);
      expect(submits).toBe(2);
      const [inFlight] = await t.app.ctx.store.db.selectFrom('payouts').select(['id', 'status']).where('user_id', '=', u.id).execute();
      expect(inFlight!.status).toBe('approved');
      // An hour on, the bank still has nothing under the reference: the next refusal is final.
      await settle(t, IN_DOUBT_MS + 60_000);
      expect(submits).toBe(3);
      release();
      const res = await pending;
      expectError(res, 502, 'WITHDRAW_FAILED');
      const id = res.json().payout_id;
      expect((await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(u.ownerToken) })).json().status).toBe('failed');
    } finally {
      await t.close();
    }
  });
});
