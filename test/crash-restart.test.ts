import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, freePort, reader, Service, until } from './child-service.js';
import { createTestStore, EXTERNAL_CBU, PASSWORD, uniqueEmail, type TestStore } from './helpers.js';

/**
 * D36 after a crash: payouts left `approved` by a process killed mid-burst are the follow-up job's to send once
 * the service is back. If the owner pauses at once, none of them reaches the bank until resume; then all do. Until
 * then they stay in flight: the dead process may have sent them, so none can be canceled as if it had not.
 */
describe('kill -9 mid-burst, restart, pause (D36)', () => {
  let store: TestStore;
  let service: Service;
  beforeAll(async () => {
    store = await createTestStore();
    service = new Service(
      await freePort(),
      childEnv(store, {
        // Long enough for the restarted service to be paused before its follow-up job looks at the crash's payouts.
        PAYOUT_SUBMISSION_GRACE_MS: '25000',
        SANDBOX_CONFIRM_DELAY_MS: '0',
        // The burst waits on a row lock held below; the kill must come while it waits.
        DATABASE_LOCK_TIMEOUT_MS: '20000',
        DATABASE_STATEMENT_TIMEOUT_MS: '30000',
      }),
    );
  });
  afterAll(async () => {
    await service.stop();
    await store.drop();
  });

  it('nothing left approved by the crash reaches the rail while paused; everything does after resume', { timeout: 180_000 }, async () => {
    await service.start();
    const email = uniqueEmail();
    const created = await service.call('POST', '/v1/users', undefined, { email, password: PASSWORD, name: 'Crash Test' });
    const agent = (await service.call('POST', '/v1/auth/token', undefined, { api_key: created.json.default_api_key.key })).json.token as string;
    const login = async () => (await service.call('POST', '/v1/login', undefined, { email, password: PASSWORD })).json.token as string;
    let owner = await login();
    const onboarded = await service.call('POST', '/v1/onboarding', owner, { legal_id: '20-12345678-6', legal_name: 'Crash Test' });
    expect(onboarded.status).toBe(200);
    expect((await service.call('POST', '/v1/sandbox/deposits', owner, { amount_ars: 10_000 })).status).toBe(201);
    const userId = created.json.id as string;
    const db = reader(store);
    // On PostgreSQL the burst's bank moves wait on the account's row, held here: every payout decided before the
    // kill is one the rail never received. On SQLite the kill lands wherever it lands.
    const holder = store.config.databaseUrl ? new pg.Client({ connectionString: store.config.databaseUrl }) : null;
    try {
      if (holder) {
        await holder.connect();
        await holder.query('begin');
        await holder.query('select * from rail_accounts where cvu = $1 for update', [onboarded.json.cvu]);
      }
      const burst = Array.from({ length: 30 }, (_, i) =>
        service.call('POST', '/v1/withdraws', agent, { amount_ars: 10, destination: EXTERNAL_CBU }, { 'idempotency-key': `crash-${i}` }).catch(() => null),
      );
      await until('payouts decided mid-burst', async () => {
        const [r] = await db.all<{ n: number }>('select count(*) as n from payouts where user_id = $1', [userId]);
        return Number(r!.n) >= 10;
      });
      service.kill9();
      await Promise.all(burst);
      if (holder) {
        // PostgreSQL notices a dead client only when it next talks to it: a bank move waiting on the row would still
        // complete once the row is released (it is one statement, as a real bank finishes a request already sent).
        // Those sessions end here, as a failover would end them: the rail never received these payouts.
        await holder.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`);
        await holder.query('rollback');
      }

      const left = await db.all<{ id: string; rail_reference: string }>(
        `select p.id, p.rail_reference from payouts p where p.user_id = $1 and p.status = 'approved'
           and not exists (select 1 from rail_transfers t where t.reference = p.rail_reference)`,
        [userId],
      );
      if (holder) expect(left.length).toBeGreaterThanOrEqual(10);
      const railRefs = async () =>
        new Set(
          (await db.all<{ reference: string }>('select t.reference from rail_transfers t join payouts p on p.rail_reference = t.reference where p.user_id = $1', [userId])).map(
            (r) => r.reference,
          ),
        );

      // Back up, and the owner pauses at once.
      await service.start();
      owner = await login();
      const paused = await service.call('POST', '/v1/payouts/pause', owner);
      expect(paused.status).toBe(200);
      const atAck = await railRefs();
      const inFlight = new Set((paused.json.in_flight as { id: string }[]).map((p) => p.id));
      // The follow-up job finds each payout the rail does not know. Whether its dead sender reached the bank cannot be
      // told, so it stays in flight, as the pause listed it: neither sent again nor shown as waiting, not cancelable.
      await until(
        'the follow-up to look at what the crash left',
        async () => {
          const rows = await db.all<{ n: number }>(`select count(*) as n from payouts where user_id = $1 and status = 'approved' and submission_unknown_at is null`, [userId]);
          return Number(rows[0]!.n) === 0;
        },
        60_000,
      );
      expect([...(await railRefs())].filter((r) => !atAck.has(r))).toEqual([]);
      const waiting = (await service.call('GET', '/v1/withdraws', owner)).json.withdraws.filter((w: { status: string }) => w.status === 'approved');
      for (const w of waiting) expect([w.id, w.waiting_for_resume, inFlight.has(w.id)]).toEqual([w.id, false, true]);
      if (holder) expect(waiting.length).toBeGreaterThanOrEqual(10);
      if (waiting[0]) expect((await service.call('POST', `/v1/withdraws/${waiting[0].id}/cancel`, owner)).status).toBe(409);

      expect((await service.call('POST', '/v1/payouts/resume', owner)).status).toBe(200);
      await until('no payout left approved', async () => {
        const rows = await db.all<{ n: number }>(`select count(*) as n from payouts where user_id = $1 and status = 'approved'`, [userId]);
        return Number(rows[0]!.n) === 0;
      });
      // Every payout the crash left is at the bank now, once, and the money adds up.
      const refs = await railRefs();
      for (const p of left) expect(refs.has(p.rail_reference)).toBe(true);
      const balance = (await service.call('GET', '/v1/balance', owner)).json.available as string;
      expect(Number(balance)).toBe(10_000 - 10 * refs.size);
    } finally {
      await holder?.end().catch(() => undefined);
      await db.close();
    }
  });
});
