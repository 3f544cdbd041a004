import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createOnboardedUser, startTestApp, withdraw } from '../../../test/helpers.js';

/**
 * A failure gives usage back for its own day and month (D16). Attempts of one user from two days of one month,
 * failed in one transaction of the follow-up's batch, would lock (u, day 1), (u, month), then (u, day 2), while a payout request
 * of that user on day 2 locks (u, day 2) then (u, month): a lock cycle, and PostgreSQL may abort the request.
 * The follow-up gives each failure a transaction of its own.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('payout follow-up batch vs a request (PostgreSQL)', () => {
  it('a request of the same user during a batch that fails attempts from two days is not aborted', async () => {
    const t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '2000' } });
    const db = t.app.ctx.store.db;
    try {
      t.clock.set('2026-11-11T02:58:00.000Z'); // 23:58 on the 10th in Buenos Aires
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      const fail = { amount_ars: 10, destination: 'sandbox.fail', destination_kind: 'ALIAS' };
      const p1 = (await withdraw(t.app, u.agentToken, fail)).json().id as string; // day 10
      t.clock.advance(5 * 60_000); // 00:03 on the 11th
      const r2 = await withdraw(t.app, u.agentToken, fail);
      expect(r2.statusCode, r2.body).toBe(201);
      const p2 = r2.json().id as string; // day 11, same month
      t.clock.advance(2_000);
      // Widens the window between the batch's first and second usage give-back (no change to what is locked).
      await sql`create table slept (x int)`.execute(db);
      await sql`create function slow_fail() returns trigger language plpgsql as $$ begin
        if new.id = ${sql.lit(p2)} and new.status = 'failed' and not exists (select 1 from slept) then
          insert into slept values (1); perform pg_sleep(1.5); end if; return new; end $$`.execute(db);
      await sql`create trigger slow_fail before update on payouts for each row execute function slow_fail()`.execute(db);

      const pass = t.app.jobs.payoutFollowUp!.runOnce();
      await new Promise((r) => setTimeout(r, 1_000)); // the batch now holds (u, day 10) and (u, month)
      const req = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: '2850590940090418135201' });
      await pass;

      expect(req.statusCode, req.body).toBe(201);
      const rows = await db.selectFrom('payouts').select(['id', 'status']).where('id', 'in', [p1, p2]).execute();
      expect(rows.every((r) => r.status === 'failed')).toBe(true);
    } finally {
      await t.close();
    }
  });
});
