import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOnboardedUser, EXTERNAL_CBU, startTestApp, type TestApp } from '../../../../test/helpers.js';
import { GroupConnection } from '../../../db/sqlite-group-connection.js';

const PG = !!process.env.TEST_DATABASE_URL;

async function transfersOf(t: TestApp, reference: string) {
  return t.app.ctx.store.db.selectFrom('rail_transfers').select(['id', 'amount']).where('reference', '=', reference).execute();
}

/**
 * A rail reference moves money once (D19, D25): the transfer's row is its claim, written first in the move's
 * transaction. These pin down what a taken reference, a short balance and a failing store do.
 */
describe('sandbox transfers by reference', () => {
  let t: TestApp;
  afterEach(async () => {
    vi.restoreAllMocks();
    await t?.close();
  });

  it('concurrent submissions of one reference whose balance covers exactly one: moved once, all accepted alike', async () => {
    t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '2000' } });
    const a = await createOnboardedUser(t.app, { fundArs: 10 });
    const req = { reference: `cc-${a.id}`, fromCvu: a.cvu, toKind: 'CBU' as const, to: EXTERNAL_CBU, amountCentavos: 1000 };
    const outs = await Promise.all(Array.from({ length: 12 }, () => t.app.ctx.rail.submitTransfer(req)));
    const ids = new Set(outs.map((o) => (o.kind === 'accepted' ? o.transfer.providerTransferId : o.kind)));
    expect([...ids]).toHaveLength(1);
    expect(outs.every((o) => o.kind === 'accepted')).toBe(true);
    expect(await transfersOf(t, req.reference)).toHaveLength(1);
    expect(await t.app.ctx.rail.getBalance(a.cvu)).toBe(0);
  });

  it('a duplicate whose balance no longer covers it answers the first transfer', async () => {
    t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '2000' } });
    const a = await createOnboardedUser(t.app, { fundArs: 10 });
    const req = { reference: `dup-${a.id}`, fromCvu: a.cvu, toKind: 'CBU' as const, to: EXTERNAL_CBU, amountCentavos: 800 };
    const first = await t.app.ctx.rail.submitTransfer(req);
    expect(first.kind).toBe('accepted');
    const again = await t.app.ctx.rail.submitTransfer(req);
    expect(again).toMatchObject({ kind: 'accepted', transfer: { providerTransferId: first.kind === 'accepted' ? first.transfer.providerTransferId : '' } });
    expect(await t.app.ctx.rail.getBalance(a.cvu)).toBe(200);
    expect(await transfersOf(t, req.reference)).toHaveLength(1);
  });

  it('the balance update fails with a store error (the callback is never told): nothing is written, a later try moves once', async () => {
    t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '2000' } });
    const db = t.app.ctx.store.db;
    const a = await createOnboardedUser(t.app, { fundArs: 10 });
    const acc = await db.selectFrom('rail_accounts').select('id').where('cvu', '=', a.cvu).executeTakeFirstOrThrow();
    if (PG) {
      await sql`create function refuse_bal() returns trigger language plpgsql as $$ begin
        if new.id = ${sql.lit(acc.id)} then raise exception 'refused'; end if; return new; end $$`.execute(db);
      await sql`create trigger refuse_bal before update on rail_accounts for each row execute function refuse_bal()`.execute(db);
    } else {
      await sql`create trigger refuse_bal before update on rail_accounts when new.id = ${sql.lit(acc.id)} begin select raise(abort, 'refused'); end`.execute(db);
    }
    const req = { reference: `err-${a.id}`, fromCvu: a.cvu, toKind: 'CBU' as const, to: EXTERNAL_CBU, amountCentavos: 300 };
    await expect(t.app.ctx.rail.submitTransfer(req)).rejects.toThrow(/refused/);
    expect(await transfersOf(t, req.reference)).toEqual([]);
    expect(await t.app.ctx.rail.getBalance(a.cvu)).toBe(1000);
    await sql`drop trigger refuse_bal${sql.raw(PG ? ' on rail_accounts' : '')}`.execute(db);
    expect((await t.app.ctx.rail.submitTransfer(req)).kind).toBe('accepted');
    expect(await t.app.ctx.rail.submitTransfer(req)).toMatchObject({ kind: 'accepted' });
    expect(await transfersOf(t, req.reference)).toHaveLength(1);
    expect(await t.app.ctx.rail.getBalance(a.cvu)).toBe(700);
  });

  it.runIf(PG)('PostgreSQL: a retry of a reference that already moved is not held up by a lock on the origin account', async () => {
    t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '2000' } });
    const a = await createOnboardedUser(t.app, { fundArs: 10 });
    const req = { reference: `lk-${a.id}`, fromCvu: a.cvu, toKind: 'CBU' as const, to: EXTERNAL_CBU, amountCentavos: 100 };
    expect((await t.app.ctx.rail.submitTransfer(req)).kind).toBe('accepted');
    // Another transaction (a settlement, another transfer of this customer) holds the origin's row.
    const other = new pg.Client({ connectionString: t.config.databaseUrl });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('select 1 from rail_accounts where cvu = $1 for update', [a.cvu]);
      const retry = t.app.ctx.rail.submitTransfer(req);
      const answer = await Promise.race([retry.then((o) => o.kind), new Promise((r) => setTimeout(() => r('still waiting'), 1500))]);
      await other.query('rollback');
      await retry;
      expect(answer).toBe('accepted');
    } finally {
      await other.end();
    }
  });

  it.runIf(!PG)('SQLite: a retry of a reference that already moved does not undo the group-commit batch', async () => {
    t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '2000' } });
    const a = await createOnboardedUser(t.app, { fundArs: 10 });
    const req = { reference: `sq-${a.id}`, fromCvu: a.cvu, toKind: 'CBU' as const, to: EXTERNAL_CBU, amountCentavos: 100 };
    expect((await t.app.ctx.rail.submitTransfer(req)).kind).toBe('accepted');
    const replay = vi.spyOn(GroupConnection.prototype, 'replay');
    expect((await t.app.ctx.rail.submitTransfer(req)).kind).toBe('accepted');
    expect(replay).not.toHaveBeenCalled();
  });
});
