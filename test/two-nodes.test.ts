import { describe, expect, it } from 'vitest';
import type { BankRail } from '../src/modules/rail/rail.port.js';
import { bearer, createOnboardedUser, EXTERNAL_CBU, setThresholds, startNodes, withdraw } from './helpers.js';
import { signedDelivery, startFakeWhatsApp, textMessage } from './fake-whatsapp.js';

/**
 * D29: several nodes on one PostgreSQL, each with its own pool and its own jobs. SQLite is single-process by
 * design (D29), so this suite runs in CI's PostgreSQL pass, where a missing database fails the run.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('two nodes on one PostgreSQL', () => {
  it('crash recovery on both nodes at once: each payout is submitted once', async () => {
    let submits = 0;
    let crashed = true;
    const counting = (rail: BankRail): BankRail =>
      Object.assign(Object.create(rail) as BankRail, {
        submitTransfer: async (req: Parameters<BankRail['submitTransfer']>[0]) => {
          if (crashed) throw new Error('process crashed before the rail saw it');
          submits++;
          await new Promise((r) => setTimeout(r, 5)); // slow enough for the other node to try the same one
          return rail.submitTransfer(req);
        },
      });
    const { nodes, clock, close } = await startNodes(2, { deps: { rail: counting } });
    try {
      const [a, b] = nodes as [typeof nodes[0], typeof nodes[0]];
      const users = await Promise.all(Array.from({ length: 3 }, () => createOnboardedUser(a, { fundArs: 10_000 })));
      const ids: string[] = [];
      for (const u of users) {
        for (let i = 0; i < 4; i++) {
          const res = await withdraw(a, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU });
          expect(res.json().status).toBe('approved'); // outcome unknown: left for the follow-up job
          ids.push(res.json().id);
        }
      }
      crashed = false;
      clock.advance(60_000);
      for (let round = 0; round < 3; round++) {
        await Promise.all([a.jobs.payoutFollowUp!.runOnce(), b.jobs.payoutFollowUp!.runOnce(), b.jobs.payoutFollowUp!.runOnce()]);
        clock.advance(5_000);
        await Promise.all([a.jobs.railSettlement!.runOnce(), b.jobs.railSettlement!.runOnce()]);
      }
      expect(submits).toBe(ids.length);
      const rows = await a.ctx.store.db.selectFrom('payouts').select(['status']).where('id', 'in', ids).execute();
      expect(rows.every((r) => r.status === 'submitted' || r.status === 'confirmed')).toBe(true);
      const submitted = await a.ctx.store.db.selectFrom('events').select('id').where('type', '=', 'payout.submitted').execute();
      expect(submitted).toHaveLength(ids.length);
    } finally {
      await close();
    }
  });

  it('payouts of many users racing their limits on both nodes at once: each limit holds, and none fails', async () => {
    // Both nodes decide for the same users at once: the per-user lock (D16) must hold each limit across nodes,
    // and the locks must come in one order everywhere, or PostgreSQL would abort one.
    const { nodes, close } = await startNodes(2);
    try {
      const [a, b] = nodes as [typeof nodes[0], typeof nodes[0]];
      const users = await Promise.all(Array.from({ length: 6 }, () => createOnboardedUser(a, { fundArs: 100_000 })));
      for (const u of users) {
        await setThresholds(a, u.ownerToken, { per_tx_limit_ars: 0, daily_limit_ars: 1000, monthly_limit_ars: 0, require_approval_above_ars: 0 });
      }
      const requests = users.flatMap((u) =>
        Array.from({ length: 10 }, (_, i) => ({ u, res: withdraw(i % 2 ? a : b, u.agentToken, { amount_ars: 150, destination: EXTERNAL_CBU }, `race-${u.id}-${i}`) })),
      );
      const answers = await Promise.all(requests.map(async (r) => ({ u: r.u, res: await r.res })));
      expect(answers.filter((x) => x.res.statusCode !== 201 && x.res.statusCode !== 202).map((x) => x.res.body)).toEqual([]);
      for (const u of users) {
        const mine = answers.filter((x) => x.u === u);
        expect(mine.filter((x) => x.res.statusCode === 201)).toHaveLength(6); // 6 × 150 ≤ 1000 < 7 × 150
        for (const x of mine.filter((y) => y.res.statusCode === 202)) expect(x.res.json().reasons).toEqual(['daily_limit']);
      }
    } finally {
      await close();
    }
  });

  it('confirmation on both nodes at once: each payout is settled and confirmed once', async () => {
    const { nodes, clock, close } = await startNodes(2, { env: { SANDBOX_CONFIRM_DELAY_MS: '2000' } });
    try {
      const [a, b] = nodes as [typeof nodes[0], typeof nodes[0]];
      const users = await Promise.all(Array.from({ length: 4 }, () => createOnboardedUser(a, { fundArs: 10_000 })));
      const ids: string[] = [];
      for (const u of users) {
        for (let i = 0; i < 15; i++) {
          const res = await withdraw(a, u.agentToken, { amount_ars: 10, destination: i % 5 === 4 ? 'sandbox.fail' : EXTERNAL_CBU, destination_kind: i % 5 === 4 ? 'ALIAS' : 'CBU' });
          expect(res.json().status).toBe('submitted');
          ids.push(res.json().id);
        }
      }
      clock.advance(2_000);
      // Both nodes' follow-up passes (which settle at the rail on demand) and the rail's own settlement, together.
      await Promise.all([
        a.jobs.payoutFollowUp!.runOnce(),
        b.jobs.payoutFollowUp!.runOnce(),
        b.jobs.railSettlement!.runOnce(),
        a.jobs.payoutFollowUp!.runOnce(),
      ]);
      await Promise.all([a.jobs.payoutFollowUp!.runOnce(), b.jobs.payoutFollowUp!.runOnce()]);
      const rows = await a.ctx.store.db.selectFrom('payouts').select(['id', 'status']).where('id', 'in', ids).execute();
      expect(rows.filter((r) => r.status === 'confirmed')).toHaveLength(48);
      expect(rows.filter((r) => r.status === 'failed')).toHaveLength(12);
      const events = await a.ctx.store.db.selectFrom('events').select('type').where('type', 'in', ['payout.confirmed', 'payout.failed']).execute();
      expect(events).toHaveLength(ids.length);
      // The failed ones' money came back once: 10,000 − 15 × 10 + 3 × 10 per user.
      for (const u of users) expect(await a.ctx.rail.getBalance(u.cvu)).toBe((10_000 - 120) * 100);
    } finally {
      await close();
    }
  });

  it('approval expiry on both nodes: one payout.expired per approval', async () => {
    const { nodes, clock, close } = await startNodes(2);
    try {
      const [a, b] = nodes as [typeof nodes[0], typeof nodes[0]];
      const u = await createOnboardedUser(a, { fundArs: 1_000_000 });
      const ids: string[] = [];
      for (let i = 0; i < 15; i++) {
        const res = await withdraw(a, u.agentToken, { amount_ars: 60_000 + i, destination: EXTERNAL_CBU });
        expect(res.statusCode).toBe(202);
        ids.push(res.json().id);
      }
      clock.advance(301_000);
      await Promise.all([a.jobs.approvalExpiry!.runOnce(), b.jobs.approvalExpiry!.runOnce(), a.jobs.approvalExpiry!.runOnce()]);
      const expired = await a.ctx.store.db.selectFrom('events').select('data').where('type', '=', 'payout.expired').where('user_id', '=', u.id).execute();
      expect(expired).toHaveLength(15);
      expect(new Set(expired.map((e) => JSON.parse(e.data).id)).size).toBe(15);
      const token = (await b.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: u.apiKey } })).json().token;
      const list = (await b.inject({ method: 'GET', url: '/v1/withdraws', headers: bearer(token) })).json().withdraws;
      expect(list.every((p: { status: string }) => p.status === 'expired')).toBe(true);
    } finally {
      await close();
    }
  });

  it('wrong WhatsApp link codes sent to both nodes at once count together: one "wait" answer, then silence', async () => {
    const wa = await startFakeWhatsApp('106540352242922');
    const secret = 'wa-app-secret-0123456789';
    const { nodes, close } = await startNodes(2, {
      env: {
        APPROVAL_CHANNELS: 'whatsapp',
        WHATSAPP_TOKEN: 'EAAG-test-token',
        WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
        WHATSAPP_APP_SECRET: secret,
        WHATSAPP_VERIFY_TOKEN: 'wa-verify-token-0123456789',
        WHATSAPP_TEMPLATE: 'aprobacion_pago:es_AR',
        WHATSAPP_API_ROOT: wa.apiRoot,
      },
    });
    try {
      const from = '5491188883333';
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => {
          const { payload, signature } = signedDelivery(secret, textMessage(from, `wamid.TWO${i}`, `Vincular ZZZZ-${2222 + i}`.replace(/[01]/g, '9')));
          return nodes[i % 2]!.inject({ method: 'POST', url: '/v1/channels/whatsapp/webhook', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, payload });
        }),
      );
      const answers = wa.texts().map((c) => String((c.body.text as { body: string }).body));
      expect(answers.filter((a) => a.includes('Demasiados'))).toHaveLength(1);
      expect(answers.length).toBeLessThanOrEqual(5);
      const row = await nodes[0]!.ctx.store.db.selectFrom('whatsapp_link_attempts').selectAll().where('wa_id', '=', from).executeTakeFirstOrThrow();
      expect(row.failures).toBeGreaterThanOrEqual(5);
    } finally {
      await close();
      await wa.close();
    }
  });
});
