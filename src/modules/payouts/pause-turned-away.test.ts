import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, EXTERNAL_CBU, startTestApp, withdraw } from '../../../test/helpers.js';
import type { BankRail } from '../rail/rail.port.js';

const post = (app: FastifyInstance, url: string, token: string) => app.inject({ method: 'POST', url, headers: bearer(token) });

/**
 * D36: a payout the rail turned away (BIND's 429 with Retry-After, up to 15 minutes) has nothing at the bank. While
 * paused it waits for resume, and says so at once: not only once the follow-up gets round to it after Retry-After,
 * meanwhile listed neither as in flight nor as waiting (the dashboard offers no cancel for it).
 */
describe('a turned-away payout and the emergency stop (D36)', () => {
  it('turned away before or after the pause, it is shown waiting for resume at once, and goes out once after resume', async () => {
    const sent: string[] = [];
    let busy = true;
    let release: (() => void) | null = null;
    const stallNext = { on: false };
    const turningAway = (rail: BankRail): BankRail =>
      Object.assign(Object.create(rail) as BankRail, {
        submitTransfer: async (req: Parameters<BankRail['submitTransfer']>[0]) => {
          if (stallNext.on) {
            stallNext.on = false;
            await new Promise<void>((r) => (release = r));
          }
          if (busy) return { kind: 'turned_away' as const, message: 'Too Many Requests', notBefore: new Date(t.clock.now().getTime() + 10 * 60_000).toISOString() };
          sent.push(req.reference);
          return rail.submitTransfer(req);
        },
      });
    const t = await startTestApp({ deps: { rail: turningAway } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1_000 });
      const view = async (id: string) => (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(u.ownerToken) })).json();

      // Turned away before the pause: answered approved, to be sent again in ten minutes.
      const before = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, 'before');
      expect(before.json()).toMatchObject({ status: 'approved' });
      const a = before.json().id as string;

      // Turned away after the pause answered, which listed it as in flight while its send was on its way.
      stallNext.on = true;
      const pending = withdraw(t.app, u.agentToken, { amount_ars: 20, destination: EXTERNAL_CBU }, 'after');
      for (let i = 0; !release; i++) {
        if (i > 200) throw new Error('the second payout was not sent');
        await new Promise((r) => setTimeout(r, 20));
      }
      const paused = await post(t.app, '/v1/payouts/pause', u.ownerToken);
      const [b] = paused.json().in_flight.map((p: { id: string }) => p.id) as string[];
      expect(b).toBeDefined();
      (release as unknown as () => void)();
      expect((await pending).json()).toMatchObject({ id: b, status: 'approved' });

      // Both wait for resume, and say so now, without waiting for the follow-up's next look at them.
      for (const id of [a, b!]) expect(await view(id)).toMatchObject({ status: 'approved', waiting_for_resume: true });
      expect((await t.app.inject({ method: 'GET', url: '/v1/payouts/pause', headers: bearer(u.ownerToken) })).json().in_flight).toEqual([]);
      t.clock.advance(60_000);
      await t.app.jobs.payoutFollowUp!.runOnce();
      expect(sent).toEqual([]);
      for (const id of [a, b!]) expect(await view(id)).toMatchObject({ status: 'approved', waiting_for_resume: true });

      // Resume: both go out (no sooner than the rail said), once each, with their own reference.
      busy = false;
      expect((await post(t.app, '/v1/payouts/resume', u.ownerToken)).statusCode).toBe(200);
      t.clock.advance(10 * 60_000);
      await t.app.jobs.payoutFollowUp!.runOnce();
      const refs = await t.app.ctx.store.db.selectFrom('payouts').select('rail_reference').where('id', 'in', [a, b!]).execute();
      expect([...sent].sort()).toEqual(refs.map((r) => r.rail_reference).sort());
      for (const id of [a, b!]) expect((await view(id)).status).toMatch(/submitted|confirmed/);
    } finally {
      await t.close();
    }
  });
});
