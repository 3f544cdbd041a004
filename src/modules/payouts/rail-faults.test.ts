import { describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, expectError, EXTERNAL_CBU, settle, startTestApp, withdraw } from '../../../test/helpers.js';
import type { BankRail } from '../rail/rail.port.js';

/** Outside faults, injected through the BankRail port only. */
describe('rail faults', () => {
  it('a submission that times out before reaching the rail: answered honestly, then submitted once by reference', async () => {
    let dropped = 0;
    const flaky = (rail: BankRail): BankRail =>
      Object.assign(Object.create(rail) as BankRail, {
        submitTransfer: async (req: Parameters<BankRail['submitTransfer']>[0]) => {
          if (dropped++ === 0) return { kind: 'unknown' as const, message: 'timeout' }; // lost before the rail saw it
          return rail.submitTransfer(req);
        },
      });
    const t = await startTestApp({ deps: { rail: flaky } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      const res = await withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU }, 'flaky-1');
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ status: 'approved', decision: 'allow' });
      // A retry with the same key replays that answer: it never becomes a second payout.
      const retry = await withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU }, 'flaky-1');
      expect(retry.headers['idempotent-replayed']).toBe('true');
      await settle(t);
      await settle(t);
      const rec = (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${res.json().id}`, headers: bearer(u.ownerToken) })).json();
      expect(rec.status).toBe('confirmed');
      const row = await t.app.ctx.store.db.selectFrom('payouts').select('rail_reference').where('id', '=', rec.id).executeTakeFirstOrThrow();
      expect(await t.app.ctx.store.db.selectFrom('rail_transfers').select('id').where('reference', '=', row.rail_reference).execute()).toHaveLength(1);
      expect((await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json().available).toBe('900.00');
    } finally {
      await t.close();
    }
  });

  it('a rail that does not answer when resolving the destination: 503 RAIL_UNAVAILABLE, nothing created, key free', async () => {
    let down = true;
    const outage = (rail: BankRail): BankRail =>
      Object.assign(Object.create(rail) as BankRail, {
        resolve: async (...a: Parameters<BankRail['resolve']>) => {
          if (down) throw new Error('ECONNRESET');
          return rail.resolve(...a);
        },
      });
    const t = await startTestApp({ deps: { rail: outage } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      expectError(await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, 'outage'), 503, 'RAIL_UNAVAILABLE');
      expect(await t.app.ctx.store.db.selectFrom('payouts').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
      down = false;
      expect((await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, 'outage')).statusCode).toBe(201);
    } finally {
      await t.close();
    }
  });

  it('a rail that resets the connection on balance and listing: 503 RAIL_UNAVAILABLE, not the database\'s 503', async () => {
    let down = false;
    const outage = (rail: BankRail): BankRail =>
      Object.assign(Object.create(rail) as BankRail, {
        getBalance: async (...a: Parameters<BankRail['getBalance']>) => {
          if (down) throw new Error('read ECONNRESET');
          return rail.getBalance(...a);
        },
        listLegs: async (...a: Parameters<BankRail['listLegs']>) => {
          if (down) throw new Error('read ECONNRESET');
          return rail.listLegs(...a);
        },
      });
    const t = await startTestApp({ deps: { rail: outage } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      down = true;
      for (const url of ['/v1/balance', '/v1/deposits']) {
        const res = await t.app.inject({ method: 'GET', url, headers: bearer(u.ownerToken) });
        expectError(res, 503, 'RAIL_UNAVAILABLE');
        expect(res.headers['retry-after']).toBeDefined();
      }
    } finally {
      await t.close();
    }
  });
});
