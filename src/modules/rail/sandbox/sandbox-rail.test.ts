import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, expectError, settle, startTestApp, WAITING_ON_ME_SQL, withdraw, type TestApp } from '../../../../test/helpers.js';
import { openStore } from '../../../db/database.js';
import { isCbu } from '../../../shared/ar-identifiers.js';
import { EXTERNAL_CBU, MAGIC_CBUS } from './sandbox-names.js';
import { SandboxRail } from './sandbox-rail.js';

/** A second connection to the test app's store, opened as the app opens it, that records every statement. */
async function observedStore(t: TestApp) {
  const statements: { sql: string; parameters: readonly unknown[] }[] = [];
  const store = openStore({
    databaseUrl: t.config.databaseUrl,
    sqliteFile: path.join(t.config.dataDir, 'wallet.sqlite'),
    onQuery: (text, parameters) => void statements.push({ sql: text, parameters }),
  });
  return Object.assign(store, { statements });
}

/** The sandbox bank's own guarantees (D25), exercised through the BankRail port over the real store. */
describe('sandbox bank rail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '2000' } });
  });
  afterAll(() => t.close());

  const customerTotal = async () => {
    const r = await t.app.ctx.store.db
      .selectFrom('rail_accounts')
      .select(sql<number>`coalesce(sum(balance), 0)`.as('total'))
      .where('kind', '=', 'customer')
      .executeTakeFirstOrThrow();
    return Number(r.total);
  };
  /** The ledger's invariants: legs of each transfer sum to zero; each customer's balance is the sum of its legs. */
  const expectLedgerBalanced = async () => {
    const db = t.app.ctx.store.db;
    const unbalanced = await db
      .selectFrom('rail_legs')
      .select(['transfer_id', sql<number>`sum(amount)`.as('s')])
      .groupBy('transfer_id')
      .having(sql`sum(amount)`, '!=', 0)
      .execute();
    expect(unbalanced).toEqual([]);
    const drift = await db
      .selectFrom('rail_accounts as a')
      .leftJoin('rail_legs as l', 'l.account_id', 'a.id')
      .select(['a.id', 'a.balance', sql<number>`coalesce(sum(l.amount), 0)`.as('legs')])
      .where('a.kind', '=', 'customer')
      .groupBy(['a.id', 'a.balance'])
      .having(sql`coalesce(sum(l.amount), 0)`, '!=', sql.ref('a.balance'))
      .execute();
    expect(drift).toEqual([]);
    // The world keeps no running balance; derived from its legs it is minus all money inside the sandbox.
    expect(await t.app.ctx.sandboxRail.worldBalance()).toBe(-(await customerTotal()));
    const world = await db.selectFrom('rail_accounts').select('balance').where('kind', '=', 'world').executeTakeFirstOrThrow();
    expect(Number(world.balance)).toBe(0);
  };

  it('100 concurrent transfers never overdraw: accepted ones fit the balance and the ledger stays balanced', async () => {
    const a = await createOnboardedUser(t.app, { fundArs: 1000 });
    const before = await customerTotal();
    const rail = t.app.ctx.rail;
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        rail.submitTransfer({ reference: `race-${a.id}-${i}`, fromCvu: a.cvu, toKind: 'CBU', to: EXTERNAL_CBU, amountCentavos: 3000 }),
      ),
    );
    const accepted = outcomes.filter((o) => o.kind === 'accepted').length;
    const rejected = outcomes.filter((o) => o.kind === 'rejected' && o.reason === 'insufficient_funds').length;
    expect(accepted).toBe(33); // 33 × 30 ARS ≤ 1000 ARS < 34 × 30 ARS
    expect(accepted + rejected).toBe(100);
    expect(await rail.getBalance(a.cvu)).toBe(100000 - accepted * 3000);
    const negative = await t.app.ctx.store.db
      .selectFrom('rail_accounts')
      .select('id')
      .where('kind', '=', 'customer')
      .where('balance', '<', 0)
      .execute();
    expect(negative).toEqual([]);
    expect(await customerTotal()).toBe(before - accepted * 3000);
    await expectLedgerBalanced();
  });

  it('a move the balance does not cover leaves nothing behind, and concurrent moves beside it go through', async () => {
    // Accounts are ids in order of opening: the payee's is lower, so its credit is applied before the debit fails.
    const payee = await createOnboardedUser(t.app, { fundArs: 5 });
    const payer = await createOnboardedUser(t.app, { fundArs: 1 });
    const other = await createOnboardedUser(t.app, { fundArs: 100 });
    const idOf = async (cvu: string) => (await t.app.ctx.store.db.selectFrom('rail_accounts').select('id').where('cvu', '=', cvu).executeTakeFirstOrThrow()).id;
    expect((await idOf(payee.cvu)) < (await idOf(payer.cvu))).toBe(true);
    const rail = t.app.ctx.rail;
    // Between two customers: the payee's credit is rolled back with the move. To another bank: the refusal must
    // not fail the moves beside it.
    const uncovered = { reference: `short-${payer.id}`, fromCvu: payer.cvu, toKind: 'ALIAS' as const, to: payee.alias, amountCentavos: 200 };
    const uncoveredOut = { reference: `short-out-${payer.id}`, fromCvu: payer.cvu, toKind: 'CBU' as const, to: EXTERNAL_CBU, amountCentavos: 200 };
    const outcomes = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) =>
        rail.submitTransfer({ reference: `beside-${other.id}-${i}`, fromCvu: other.cvu, toKind: 'CBU', to: EXTERNAL_CBU, amountCentavos: 100 }),
      ),
      rail.submitTransfer(uncovered),
      rail.submitTransfer(uncoveredOut),
      ...Array.from({ length: 5 }, (_, i) =>
        rail.submitTransfer({ reference: `after-${other.id}-${i}`, fromCvu: other.cvu, toKind: 'CBU', to: EXTERNAL_CBU, amountCentavos: 100 }),
      ),
    ]);
    expect(outcomes[5]).toMatchObject({ kind: 'rejected', reason: 'insufficient_funds' });
    expect(outcomes[6]).toMatchObject({ kind: 'rejected', reason: 'insufficient_funds' });
    expect(await rail.getTransfer(uncoveredOut.reference)).toBeNull();
    expect(outcomes.filter((o) => o.kind === 'accepted')).toHaveLength(10);
    expect(await rail.getBalance(payee.cvu)).toBe(500);
    expect(await rail.getBalance(payer.cvu)).toBe(100);
    expect(await rail.getBalance(other.cvu)).toBe(10000 - 1000);
    // No transfer row is left for the refused reference: submitted again once funded, it moves the money.
    expect(await rail.getTransfer(uncovered.reference)).toBeNull();
    await t.app.ctx.sandboxRail.depositFromOutside({ cvu: payer.cvu, amountCentavos: 1000, fromName: 'Top up', fromCbu: EXTERNAL_CBU, fromLegalId: '20111111112' });
    expect(await rail.submitTransfer(uncovered)).toMatchObject({ kind: 'accepted' });
    expect(await rail.getBalance(payee.cvu)).toBe(700);
    await expectLedgerBalanced();
  });

  it('one reference moves money once, even when submitted concurrently', async () => {
    const a = await createOnboardedUser(t.app, { fundArs: 100 });
    const req = { reference: `once-${a.id}`, fromCvu: a.cvu, toKind: 'CBU' as const, to: EXTERNAL_CBU, amountCentavos: 1000 };
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => t.app.ctx.rail.submitTransfer(req)));
    expect(outcomes.every((o) => o.kind === 'accepted')).toBe(true);
    const ids = new Set(outcomes.map((o) => (o.kind === 'accepted' ? o.transfer.providerTransferId : '')));
    expect(ids.size).toBe(1);
    expect(await t.app.ctx.rail.getBalance(a.cvu)).toBe(9000);
  });

  it('confirms after SANDBOX_CONFIRM_DELAY_MS; sandbox.fail fails and returns the money; sandbox.reject never moves it', async () => {
    const a = await createOnboardedUser(t.app, { fundArs: 100 });
    const rail = t.app.ctx.rail;
    const ok = await rail.submitTransfer({ reference: `ok-${a.id}`, fromCvu: a.cvu, toKind: 'CBU', to: EXTERNAL_CBU, amountCentavos: 1000 });
    const fail = await rail.submitTransfer({ reference: `fail-${a.id}`, fromCvu: a.cvu, toKind: 'ALIAS', to: 'sandbox.fail', amountCentavos: 2000 });
    const rej = await rail.submitTransfer({ reference: `rej-${a.id}`, fromCvu: a.cvu, toKind: 'ALIAS', to: 'SANDBOX.REJECT', amountCentavos: 2000 });
    expect(ok.kind === 'accepted' && ok.transfer.status).toBe('IN_PROGRESS');
    expect(fail.kind === 'accepted' && fail.transfer.status).toBe('IN_PROGRESS');
    expect(rej).toMatchObject({ kind: 'rejected', reason: 'destination_rejected' });
    expect(await rail.getBalance(a.cvu)).toBe(10000 - 3000);

    t.clock.advance(1999);
    await t.app.jobs.railSettlement!.runOnce();
    expect((await rail.getTransfer(`ok-${a.id}`))!.status).toBe('IN_PROGRESS');
    t.clock.advance(1);
    await t.app.jobs.railSettlement!.runOnce();
    expect((await rail.getTransfer(`ok-${a.id}`))!.status).toBe('COMPLETED');
    const failed = (await rail.getTransfer(`fail-${a.id}`))!;
    expect(failed.status).toBe('FAILED');
    expect(failed.failureReason).toBeTruthy();
    expect(await rail.getBalance(a.cvu)).toBe(10000 - 1000);
    expect(await rail.getTransfer(`rej-${a.id}`)).toBeNull();
  });

  it('getTransfers: many references in one query; due ones settled together, unknown ones absent', async () => {
    const a = await createOnboardedUser(t.app, { fundArs: 100 });
    const rail = t.app.ctx.rail;
    const refs = Array.from({ length: 5 }, (_, i) => `gt${i}-${a.id}`);
    for (const [i, reference] of refs.entries()) {
      const to = i === 4 ? 'sandbox.fail' : EXTERNAL_CBU;
      await rail.submitTransfer({ reference, fromCvu: a.cvu, toKind: i === 4 ? 'ALIAS' : 'CBU', to, amountCentavos: 100 * (i + 1) });
    }
    const before = await rail.getTransfers([...refs, `never-${a.id}`]);
    expect([...before.keys()].sort()).toEqual([...refs].sort());
    expect([...before.values()].every((x) => x.status === 'IN_PROGRESS')).toBe(true);

    t.clock.advance(2000);
    const o = await observedStore(t);
    try {
      const observed = new SandboxRail(o, t.clock, 2000);
      const after = await observed.getTransfers([refs[0]!, refs[4]!, refs[1]!, `never-${a.id}`]);
      expect(after.get(refs[0]!)!.status).toBe('COMPLETED');
      expect(after.get(refs[1]!)!.status).toBe('COMPLETED');
      expect(after.get(refs[4]!)).toMatchObject({ status: 'FAILED', failureReason: 'destination_account_closed' });
      expect(after.has(`never-${a.id}`)).toBe(false);
      // One read for the list, one transaction for the three settlements: one update completes both payouts to
      // another bank, the failure is settled on its own (it returns the money).
      const text = o.statements.map((s) => s.sql.toLowerCase());
      expect(text.filter((s) => s.startsWith('select') && s.includes('from "rail_transfers"'))).toHaveLength(1);
      expect(text.filter((s) => s.startsWith('update "rail_transfers"'))).toHaveLength(2);
      // SQLite's group commit commits in the driver, unobserved; PostgreSQL's COMMIT is a statement.
      if (t.config.databaseUrl) expect(text.filter((s) => s.startsWith('commit'))).toHaveLength(1);
    } finally {
      await o.close();
    }
    // Settled once: the money of the failed one came back once, and the others stay settled.
    expect(await rail.getBalance(a.cvu)).toBe(10000 - 100 - 200 - 300 - 400);
    expect((await rail.getTransfers(refs)).get(refs[2]!)!.status).toBe('COMPLETED');
  });

  it('getTransfers: a transfer that cannot be settled holds back none of the others, and is answered as it stands', async () => {
    const a = await createOnboardedUser(t.app, { fundArs: 100 });
    const rail = t.app.ctx.rail;
    const db = t.app.ctx.store.db;
    const refs = Array.from({ length: 3 }, (_, i) => `stuck${i}-${a.id}`);
    for (const reference of refs) await rail.submitTransfer({ reference, fromCvu: a.cvu, toKind: 'CBU', to: EXTERNAL_CBU, amountCentavos: 100 });
    // A statement that fails inside the store: a trigger refusing that one transfer's completion.
    const postgres = Boolean(t.config.databaseUrl);
    if (postgres) {
      await sql`create function refuse_settle() returns trigger language plpgsql as $$ begin
        if new.reference = ${sql.lit(refs[1]!)} and new.status = 'COMPLETED' then raise exception 'refused'; end if; return new; end $$`.execute(db);
      await sql`create trigger refuse_settle before update on rail_transfers for each row execute function refuse_settle()`.execute(db);
    } else {
      await sql`create trigger refuse_settle before update of status on rail_transfers
        when new.reference = ${sql.lit(refs[1]!)} and new.status = 'COMPLETED' begin select raise(abort, 'refused'); end`.execute(db);
    }
    try {
      t.clock.advance(2000);
      const got = await rail.getTransfers(refs);
      expect(refs.map((r) => got.get(r)!.status)).toEqual(['COMPLETED', 'IN_PROGRESS', 'COMPLETED']);
    } finally {
      await sql`drop trigger refuse_settle${postgres ? sql` on rail_transfers` : sql``}`.execute(db);
      if (postgres) await sql`drop function refuse_settle()`.execute(db);
    }
    expect((await rail.getTransfers(refs)).get(refs[1]!)!.status).toBe('COMPLETED');
  });

  it('sandbox.timeout answers "unknown" but the transfer exists once, found by reference', async () => {
    const a = await createOnboardedUser(t.app, { fundArs: 100 });
    const req = { reference: `to-${a.id}`, fromCvu: a.cvu, toKind: 'ALIAS' as const, to: 'sandbox.timeout', amountCentavos: 500 };
    expect((await t.app.ctx.rail.submitTransfer(req)).kind).toBe('unknown');
    const found = await t.app.ctx.rail.getTransfer(req.reference);
    expect(found).toMatchObject({ reference: req.reference, status: 'IN_PROGRESS' });
    expect(await t.app.ctx.rail.getBalance(a.cvu)).toBe(9500);
  });

  it('resolves aliases case-insensitively and refuses unknown ones', async () => {
    const b = await createOnboardedUser(t.app, { name: 'Berta Gómez' });
    const r = await t.app.ctx.rail.resolve('ALIAS', b.alias.toUpperCase());
    expect(r).toMatchObject({ accountNumber: b.cvu, holderName: 'Berta Gómez', holderLegalId: b.legalId });
    expect(await t.app.ctx.rail.resolve('ALIAS', 'no.such.alias.here')).toBeNull();
    const a = await createOnboardedUser(t.app, { fundArs: 10 });
    const out = await t.app.ctx.rail.submitTransfer({ reference: `nf-${a.id}`, fromCvu: a.cvu, toKind: 'ALIAS', to: 'no.such.alias.here', amountCentavos: 100 });
    expect(out).toMatchObject({ kind: 'rejected', reason: 'destination_not_found' });
  });

  it('an external payout takes one read and touches no shared row; a retry of its reference is one insert and one read', async () => {
    const a = await createOnboardedUser(t.app, { fundArs: 100 });
    const b = await createOnboardedUser(t.app, { fundArs: 1 });
    const observed = await observedStore(t);
    try {
      const rail = new SandboxRail(observed, t.clock, 2000);
      const req = { reference: `rt-${a.id}`, fromCvu: a.cvu, toKind: 'CBU' as const, to: EXTERNAL_CBU, amountCentavos: 700 };
      observed.statements.length = 0;
      const out = await rail.submitTransfer(req);
      expect(out).toMatchObject({ kind: 'accepted', transfer: { status: 'IN_PROGRESS', counterpartyAccount: EXTERNAL_CBU } });
      const work = observed.statements.filter((q) => !/^(begin|commit|rollback|select pg_current_xact_id)/i.test(q.sql));
      // On PostgreSQL the transfer, the debit and the legs are one statement, with no transaction around it.
      expect(work.map((q) => q.sql.split(' ').slice(0, 3).join(' ').replace(/"/g, ''))).toEqual(
        t.app.ctx.store.dialect === 'postgres'
          ? ['select * from', 'with transfer as']
          : ['select * from', 'insert into rail_transfers', 'update rail_accounts set', 'insert into rail_legs'],
      );
      if (t.app.ctx.store.dialect === 'postgres') expect(observed.statements.filter((q) => /^(begin|commit)/i.test(q.sql))).toEqual([]);
      // The world's row is never read nor updated: its id is a constant and it keeps no running balance.
      const onAccounts = work.filter((q) => /rail_accounts/.test(q.sql) && !q.sql.startsWith('with transfer'));
      expect(onAccounts.some((q) => q.parameters.includes('acc_world'))).toBe(false);
      const oneStatement = work.find((q) => q.sql.startsWith('with transfer'));
      if (oneStatement) {
        const updates = [...oneStatement.sql.matchAll(/update rail_accounts [^)]*?where id = \$(\d+)/g)];
        expect(updates).toHaveLength(1);
        expect(oneStatement.parameters[Number(updates[0]![1]) - 1]).not.toBe('acc_world');
      }
      // A CBU is never a customer here (they hold CVUs under the sandbox's prefix): the read asks for the origin
      // alone, and resolving the CBU reads nothing at all.
      expect(work[0]!.parameters).toEqual([a.cvu]);
      observed.statements.length = 0;
      expect(await rail.resolve('CBU', EXTERNAL_CBU)).toMatchObject({ accountNumber: EXTERNAL_CBU, holderName: 'Titular cuenta 5201' });
      expect(await rail.resolve('CVU', '0000076550000000000005')).toMatchObject({ accountNumber: '0000076550000000000005' });
      expect(observed.statements).toEqual([]);
      // A CVU under the sandbox's prefix is looked up: it may be a customer's.
      expect(await rail.resolve('CVU', b.cvu)).toMatchObject({ accountNumber: b.cvu, holderLegalId: b.legalId });
      expect(observed.statements).toHaveLength(1);

      observed.statements.length = 0;
      expect(await rail.submitTransfer(req)).toMatchObject({ kind: 'accepted', transfer: { providerTransferId: out.kind === 'accepted' ? out.transfer.providerTransferId : '' } });
      const retry = observed.statements.filter((q) => !/^(begin|commit|rollback|select pg_current_xact_id)/i.test(q.sql));
      // The origin was read once: its id and holder never change, so the rail does not read it again.
      expect(retry.filter((q) => /^select \* from "rail_accounts"/.test(q.sql))).toEqual([]);
      expect(retry.filter((q) => /^update/i.test(q.sql))).toEqual([]);
      expect(retry).toHaveLength(2); // the refused insert (the one statement on PostgreSQL), the transfer by reference
      expect(await t.app.ctx.rail.getBalance(a.cvu)).toBe(10000 - 700);

      // Between two customers: the one read finds both accounts.
      observed.statements.length = 0;
      expect((await rail.submitTransfer({ ...req, reference: `rt2-${a.id}`, toKind: 'ALIAS', to: b.alias })).kind).toBe('accepted');
      const between = observed.statements.filter((q) => !/^(begin|commit|rollback|select pg_current_xact_id)/i.test(q.sql));
      expect(between.filter((q) => /^select/i.test(q.sql))).toHaveLength(1);
      expect(between).toHaveLength(5);
    } finally {
      await observed.close();
    }
    await expectLedgerBalanced();
  });

  it('an IN_PROGRESS transfer says when it settles (settlesAfter); a final one does not', async () => {
    const a = await createOnboardedUser(t.app, { fundArs: 100 });
    const submittedAt = t.clock.now().getTime();
    const out = await t.app.ctx.rail.submitTransfer({ reference: `sa-${a.id}`, fromCvu: a.cvu, toKind: 'CBU', to: EXTERNAL_CBU, amountCentavos: 100 });
    expect(out.kind === 'accepted' && out.transfer.settlesAfter).toBe(new Date(submittedAt + 2000).toISOString());
    expect((await t.app.ctx.rail.getTransfer(`sa-${a.id}`))!.settlesAfter).toBe(new Date(submittedAt + 2000).toISOString());
    t.clock.advance(2000);
    const done = (await t.app.ctx.rail.getTransfer(`sa-${a.id}`))!;
    expect(done.status).toBe('COMPLETED');
    expect(done).not.toHaveProperty('settlesAfter');
  });

  it('each magic alias resolves to its own valid CBU, and paying that CBU plays the same scenario', async () => {
    const rail = t.app.ctx.rail;
    const numbers = new Set<string>();
    for (const scenario of ['reject', 'fail', 'timeout'] as const) {
      const byAlias = await rail.resolve('ALIAS', `sandbox.${scenario}`);
      expect(byAlias).toMatchObject({ kind: 'ALIAS', accountNumber: MAGIC_CBUS[scenario], holderName: `Sandbox ${scenario}` });
      expect(isCbu(byAlias!.accountNumber)).toBe(true);
      expect(await rail.resolve('CBU', byAlias!.accountNumber)).toEqual({ ...byAlias, kind: 'CBU' });
      numbers.add(byAlias!.accountNumber);
    }
    expect(numbers.size).toBe(3);
    expect(numbers.has(EXTERNAL_CBU)).toBe(false);

    const a = await createOnboardedUser(t.app, { fundArs: 100 });
    const pay = (to: string, reference: string) => rail.submitTransfer({ reference, fromCvu: a.cvu, toKind: 'CBU', to, amountCentavos: 1000 });
    expect(await pay(MAGIC_CBUS.reject, `mr-${a.id}`)).toMatchObject({ kind: 'rejected', reason: 'destination_rejected' });
    expect((await pay(MAGIC_CBUS.timeout, `mt-${a.id}`)).kind).toBe('unknown');
    expect(await pay(MAGIC_CBUS.fail, `mf-${a.id}`)).toMatchObject({ kind: 'accepted', transfer: { counterpartyAccount: MAGIC_CBUS.fail } });
    t.clock.advance(2000);
    expect(await rail.getTransfer(`mf-${a.id}`)).toMatchObject({ status: 'FAILED', failureReason: 'destination_account_closed' });
    expect(await rail.getTransfer(`mt-${a.id}`)).toMatchObject({ status: 'COMPLETED', counterpartyAccount: MAGIC_CBUS.timeout });
    expect(await rail.getBalance(a.cvu)).toBe(10000 - 1000);
    await expectLedgerBalanced();
  });

  it('failures of one account settled in one batch give all the money back, in one change, with a reversal each', async () => {
    const a = await createOnboardedUser(t.app, { fundArs: 100 });
    const rail = t.app.ctx.rail;
    const refs = [`nf1-${a.id}`, `nf2-${a.id}`, `nok-${a.id}`];
    for (const [i, to] of [MAGIC_CBUS.fail, MAGIC_CBUS.fail, EXTERNAL_CBU].entries()) {
      expect((await rail.submitTransfer({ reference: refs[i]!, fromCvu: a.cvu, toKind: 'CBU', to, amountCentavos: 1500 })).kind).toBe('accepted');
    }
    expect(await rail.getBalance(a.cvu)).toBe(10000 - 4500);
    t.clock.advance(2000);
    const settled = await rail.getTransfers(refs);
    expect(refs.map((r) => settled.get(r)?.status)).toEqual(['FAILED', 'FAILED', 'COMPLETED']);
    expect(await rail.getBalance(a.cvu)).toBe(10000 - 1500);
    const legs = await t.app.ctx.store.db
      .selectFrom('rail_legs as l')
      .innerJoin('rail_transfers as x', 'x.id', 'l.transfer_id')
      .select(['x.reference', 'l.amount', 'l.is_reversal'])
      .where('x.reference', 'in', refs.slice(0, 2))
      .where('l.is_reversal', '=', 1)
      .execute();
    expect(legs.filter((l) => Number(l.amount) > 0).map((l) => l.reference).sort()).toEqual(refs.slice(0, 2).sort());
    await expectLedgerBalanced();
  });

  it('through the API: a payout to the reject CBU answers 502, to the fail CBU ends failed with the money back', async () => {
    const u = await createOnboardedUser(t.app, { fundArs: 100 });
    expectError(await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: MAGIC_CBUS.reject }), 502, 'WITHDRAW_FAILED');
    const failing = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: MAGIC_CBUS.fail });
    expect(failing.statusCode).toBe(201);
    await settle(t);
    const rec = (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${failing.json().id}`, headers: bearer(u.ownerToken) })).json();
    expect(rec).toMatchObject({ status: 'failed', failure_reason: 'destination_account_closed' });
    expect((await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json().available).toBe('100.00');
  });

  it('taking incoming notices when none is due is one statement on an index', async () => {
    for (let n = await t.app.ctx.rail.takeIncoming(500); n.length > 0; n = await t.app.ctx.rail.takeIncoming(500)) {
      await t.app.ctx.rail.ackIncoming(n.map((x) => ({ handle: x.handle })));
    }
    const observed = await observedStore(t);
    try {
      expect(await new SandboxRail(observed, t.clock, 2000).takeIncoming(100)).toEqual([]);
      expect(observed.statements).toHaveLength(1);
      // PostgreSQL: one claiming statement that skips rows other nodes hold; SQLite: a plain read, nothing written.
      expect(observed.statements[0]!.sql).toMatch(t.config.databaseUrl ? /^update .* for update skip locked/s : /^select/);
      if (!t.config.databaseUrl) {
        const [q] = observed.statements;
        const file = new SQLite(path.join(t.config.dataDir, 'wallet.sqlite'), { readonly: true });
        try {
          const plan = file.prepare(`explain query plan ${q!.sql}`).all(...(q!.parameters as unknown[])) as { detail: string }[];
          expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING INDEX rail_incoming_notices_due_idx/);
        } finally {
          file.close();
        }
      }
    } finally {
      await observed.close();
    }
  });
});

/**
 * Reversals of failed transfers settled in one batch lock accounts in account order, as shared moves do. In
 * transfer order, a batch holding B while it waits for A and a shared move holding A while it waits for B would
 * deadlock; PostgreSQL would abort one after `deadlock_timeout`.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('sandbox reversals and lock order (PostgreSQL)', () => {
  it('a batch of failures waits for the lowest account before it locks a higher one', async () => {
    const t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '2000' } });
    const observed = await observedStore(t);
    try {
      const db = t.app.ctx.store.db;
      const users = [await createOnboardedUser(t.app, { fundArs: 100 }), await createOnboardedUser(t.app, { fundArs: 100 })];
      const accounts = await Promise.all(
        users.map(async (u) => ({ cvu: u.cvu, id: (await db.selectFrom('rail_accounts').select('id').where('cvu', '=', u.cvu).executeTakeFirstOrThrow()).id })),
      );
      const [low, high] = accounts.sort((a, b) => (a.id < b.id ? -1 : 1));
      // The higher account's transfer comes first in transfer order.
      const rail = t.app.ctx.rail;
      for (const [n, acc] of [high!, low!].entries()) {
        const out = await rail.submitTransfer({ reference: `lo-${n}-${acc.id}`, fromCvu: acc.cvu, toKind: 'CBU', to: MAGIC_CBUS.fail, amountCentavos: 1000 });
        expect(out.kind).toBe('accepted');
        t.clock.advance(1);
      }
      t.clock.advance(2000);

      // A balance update's lock (FOR NO KEY UPDATE; a leg's foreign key only takes KEY SHARE, which does not conflict).
      let highWasFree: boolean | undefined;
      let settling: Promise<Map<string, unknown>> | undefined;
      await observed.db.transaction().execute(async (tx) => {
        await sql`select id from rail_accounts where id = ${low!.id} for no key update`.execute(tx);
        settling = rail.getTransfers([`lo-0-${high!.id}`, `lo-1-${low!.id}`]);
        for (let i = 0; i < 200; i++) {
          const waiting = await sql.raw<{ n: number }>(WAITING_ON_ME_SQL).execute(tx);
          if (waiting.rows[0]!.n > 0) break;
          await new Promise((r) => setTimeout(r, 10));
        }
        try {
          await sql`select id from rail_accounts where id = ${high!.id} for no key update nowait`.execute(tx);
          highWasFree = true;
        } catch {
          highWasFree = false;
        }
      });
      expect(highWasFree).toBe(true);
      const settled = (await settling!) as Map<string, { status: string }>;
      expect([...settled.values()].map((s) => s.status)).toEqual(['FAILED', 'FAILED']);
      for (const acc of [low!, high!]) expect(await rail.getBalance(acc.cvu)).toBe(10000);
    } finally {
      await observed.close();
      await t.close();
    }
  });
});
