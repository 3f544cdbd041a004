import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, EXTERNAL_CBU, setThresholds, settle, startTestApp, withdraw } from '../../../test/helpers.js';
import type { BankRail } from '../rail/rail.port.js';

/** A deterministic generator, so a failure can be replayed from its seed. */
function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

describe('usage counters (D16 without history scans)', () => {
  it('equal the sums over committed attempts after a randomized run of every transition', async () => {
    const random = rng(20261122);
    let rejectNext = false;
    const rail = (r: BankRail): BankRail =>
      Object.assign(Object.create(r) as BankRail, {
        submitTransfer: async (req: Parameters<BankRail['submitTransfer']>[0]) => {
          if (rejectNext) return { kind: 'rejected' as const, reason: 'destination_rejected' as const, message: 'no' };
          return r.submitTransfer(req);
        },
      });
    const t = await startTestApp({ deps: { rail }, env: { JWT_EXPIRY_HOURS: '8760' } });
    try {
      const users = [await createOnboardedUser(t.app, { fundArs: 10_000_000 }), await createOnboardedUser(t.app, { fundArs: 10_000_000 })];
      for (const u of users) await setThresholds(t.app, u.ownerToken, { daily_limit_ars: 3_000_000, monthly_limit_ars: 0, require_approval_above_ars: 50_000 });
      const pending: { user: (typeof users)[0]; approval: string }[] = [];
      for (let step = 0; step < 120; step++) {
        const u = users[Math.floor(random() * users.length)]!;
        const roll = random();
        if (roll < 0.45) {
          rejectNext = random() < 0.2;
          const amount = random() < 0.3 ? 60_000 + Math.floor(random() * 1000) : 1 + Math.floor(random() * 5000);
          const res = await withdraw(t.app, random() < 0.5 ? u.agentToken : u.ownerToken, { amount_ars: amount, destination: EXTERNAL_CBU });
          if (res.statusCode === 202) pending.push({ user: u, approval: res.json().approval_id });
          rejectNext = false;
        } else if (roll < 0.7 && pending.length > 0) {
          const p = pending.splice(Math.floor(random() * pending.length), 1)[0]!;
          const verdict = random() < 0.5 ? 'approve' : 'reject';
          await t.app.inject({ method: 'POST', url: `/v1/approvals/${p.approval}/${verdict}`, headers: bearer(p.user.ownerToken) });
        } else if (roll < 0.8) {
          t.clock.advance(random() < 0.5 ? 301_000 : 6 * 3600 * 1000); // expiries; days (and months) go by
          await t.app.jobs.approvalExpiry!.runOnce();
        } else {
          await settle(t, 5_000);
        }
      }
      const db = t.app.ctx.store.db;
      const counters = await db.selectFrom('payout_usage').select(['subject', 'period', 'amount']).where('amount', '!=', 0).execute();
      const expected: { subject: string; period: string; amount: number }[] = [];
      for (const [prefix, col] of [
        ['u:', 'user_id'],
        ['k:', 'api_key_id'],
      ] as const) {
        for (const period of ['day_key', 'month_key'] as const) {
          const rows = await sql<{ subject: string; period: string; amount: number }>`
            select ${prefix} || ${sql.ref(col)} as subject, ${sql.ref(period)} as period, sum(amount) as amount from payouts
            where ${sql.ref(col)} is not null and status in ('pending_approval', 'approved', 'submitted', 'confirmed')
            group by ${sql.ref(col)}, ${sql.ref(period)}`.execute(db);
          expected.push(...rows.rows.map((r) => ({ ...r, amount: Number(r.amount) })));
        }
      }
      const norm = (xs: { subject: string; period: string; amount: number }[]) =>
        xs.map((x) => `${x.subject} ${x.period} ${Number(x.amount)}`).sort();
      expect(norm(counters)).toEqual(norm(expected));
      const statuses = new Set((await db.selectFrom('payouts').select('status').execute()).map((r) => r.status));
      for (const s of ['rejected', 'expired', 'failed', 'confirmed']) expect(statuses).toContain(s);
    } finally {
      await t.close();
    }
  }, 120_000);
});
