import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { bearer, createOnboardedUser, EXTERNAL_CBU, startTestApp, withdraw } from '../../../test/helpers.js';
import { systemClock } from '../../shared/clock.js';
import type { BankRail } from '../rail/rail.port.js';
import { followUpPayouts } from './payout.follow-up.js';

/** A submitted payout is next checked when the rail can have settled it, not at a polling interval. */
describe('payout follow-up timing', () => {
  it('confirms a payout once the rail settles it, even when the job interval is a minute', async () => {
    const t = await startTestApp({
      env: { SANDBOX_CONFIRM_DELAY_MS: '300', JOBS_INTERVAL_MS: '60000' },
      deps: { clock: systemClock, startJobs: true },
    });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      const res = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU });
      expect(res.statusCode).toBe(201);
      const id = res.json().id as string;
      let status = '';
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline && status !== 'confirmed') {
        await new Promise((r) => setTimeout(r, 100));
        status = (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(u.ownerToken) })).json().status;
      }
      expect(status).toBe('confirmed');
    } finally {
      await t.close();
    }
  });
});

/** The follow-up works due attempts as a batch: one claim, one question to the rail, one transaction. */
describe('payout follow-up batches', () => {
  const counting = (calls: { one: number; many: number[] }) => (rail: BankRail): BankRail =>
    Object.assign(Object.create(rail) as BankRail, {
      getTransfer: async (ref: string) => {
        calls.one++;
        return rail.getTransfer(ref);
      },
      getTransfers: async (refs: readonly string[]) => {
        calls.many.push(refs.length);
        return rail.getTransfers(refs);
      },
    });

  it('a pass with nothing due is one indexed statement, and on SQLite writes nothing', async () => {
    const texts: string[] = [];
    let capturing = false;
    const t = await startTestApp({ deps: { onQuery: (text) => void (capturing && texts.push(text)) } });
    try {
      capturing = true;
      await t.app.jobs.payoutFollowUp!.runOnce();
      capturing = false;
      expect(texts).toHaveLength(1);
      expect(texts[0]).toMatch(t.config.databaseUrl ? /^update "payouts" .* for update skip locked/s : /^select "id" from "payouts" where "next_check_at" <= /);
    } finally {
      await t.close();
    }
  });

  it('confirms every due payout of a pass with one question to the rail per chunk of 25', async () => {
    const calls = { one: 0, many: [] as number[] };
    const t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '2000' }, deps: { rail: counting(calls) } });
    try {
      const users = [await createOnboardedUser(t.app, { fundArs: 1000 }), await createOnboardedUser(t.app, { fundArs: 1000 })];
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) ids.push((await withdraw(t.app, users[i % 2]!.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU })).json().id);
      t.clock.advance(2000);
      await t.app.jobs.payoutFollowUp!.runOnce();
      expect({ one: calls.one, many: calls.many.sort((a, b) => a - b) }).toEqual({ one: 0, many: [5, 25] });
      const rows = await t.app.ctx.store.db.selectFrom('payouts').select(['status', 'next_check_at']).where('id', 'in', ids).execute();
      expect(rows.every((r) => r.status === 'confirmed' && r.next_check_at === null)).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('one payout that cannot be applied holds back none of the others, and is confirmed once it can', async () => {
    const t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '2000' } });
    const db = t.app.ctx.store.db;
    const postgres = Boolean(t.config.databaseUrl);
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU })).json().id);
      const stuck = ids[2]!;
      // A statement that fails inside the store: a trigger refusing that one payout's confirmation.
      if (postgres) {
        await sql`create function refuse_confirm() returns trigger language plpgsql as $$ begin
          if new.id = ${sql.lit(stuck)} and new.status = 'confirmed' then raise exception 'refused'; end if; return new; end $$`.execute(db);
        await sql`create trigger refuse_confirm before update on payouts for each row execute function refuse_confirm()`.execute(db);
      } else {
        await sql`create trigger refuse_confirm before update of status on payouts
          when new.id = ${sql.lit(stuck)} and new.status = 'confirmed' begin select raise(abort, 'refused'); end`.execute(db);
      }
      t.clock.advance(2000);
      await t.app.jobs.payoutFollowUp!.runOnce();
      const status = async () =>
        Object.fromEntries((await db.selectFrom('payouts').select(['id', 'status']).where('id', 'in', ids).execute()).map((r) => [r.id, r.status]));
      expect(await status()).toEqual(Object.fromEntries(ids.map((id) => [id, id === stuck ? 'submitted' : 'confirmed'])));

      await sql`drop trigger refuse_confirm${postgres ? sql` on payouts` : sql``}`.execute(db);
      t.clock.advance(60_000); // its lease runs out
      await t.app.jobs.payoutFollowUp!.runOnce();
      expect((await status())[stuck]).toBe('confirmed');
      const confirmed = await db.selectFrom('events').select('data').where('user_id', '=', u.id).where('type', '=', 'payout.confirmed').execute();
      expect(confirmed).toHaveLength(5);
    } finally {
      await t.close();
    }
  });

  it('a rail slow to answer: the lease is renewed while it waits, so another pass cannot take the payout; it is confirmed once', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let asked = 0;
    // The first question to the rail waits until the test lets it go; later ones (another pass) answer at once.
    const slow = (rail: BankRail): BankRail =>
      Object.assign(Object.create(rail) as BankRail, {
        getTransfers: async (refs: readonly string[]) => {
          if (++asked === 1) await gate;
          return rail.getTransfers(refs);
        },
      });
    const t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '2000' }, deps: { rail: slow } });
    const db = t.app.ctx.store.db;
    const waitFor = async (what: () => Promise<boolean>) => {
      for (let i = 0; i < 200 && !(await what()); i++) await new Promise((r) => setTimeout(r, 10));
    };
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      const id = (await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU })).json().id as string;
      const nextCheck = async () => (await db.selectFrom('payouts').select('next_check_at').where('id', '=', id).executeTakeFirstOrThrow()).next_check_at;
      t.clock.advance(2000);
      // Only the renewal's interval is driven by the test; the store's timers stay real.
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      const first = followUpPayouts(t.app.ctx);
      await waitFor(async () => asked === 1);
      const claimed = await nextCheck();
      expect(claimed).not.toBeNull();

      // Forty seconds on, the renewal (every third of the one-minute lease) moves the lease on from now.
      t.clock.advance(40_000);
      vi.advanceTimersByTime(20_000);
      await waitFor(async () => (await nextCheck()) !== claimed);
      expect(Date.parse((await nextCheck())!)).toBe(t.clock.now().getTime() + 60_000);

      // Past the first lease, another pass (another node's, D29) finds nothing due and asks the rail nothing.
      t.clock.advance(30_000);
      expect(await followUpPayouts(t.app.ctx)).toBe(0);
      expect(asked).toBe(1);

      release();
      expect(await first).toBe(1);
      const row = await db.selectFrom('payouts').select(['status', 'next_check_at']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'confirmed', next_check_at: null });
      const confirmed = await db.selectFrom('events').select('id').where('user_id', '=', u.id).where('type', '=', 'payout.confirmed').execute();
      expect(confirmed).toHaveLength(1);
    } finally {
      vi.useRealTimers();
      release();
      await t.close();
    }
  });
});
