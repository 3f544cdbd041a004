import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOnboardedUser, createTestStore, EXTERNAL_CBU, startTestApp, type TestApp } from '../../../../test/helpers.js';
import { openStore } from '../../../db/database.js';
import { allMigrations, migratorFor } from '../../../db/migrate.js';
import type { IncomingNotice } from '../rail.port.js';
import { NOTICE_LEASE_MS, NOTICE_MAX_TAKES } from './sandbox-incoming.js';
import { DEFAULT_DEPOSITOR } from './sandbox-names.js';

/** The sandbox rail's notices of incoming credits (its outbox), through the BankRail port over the real store. */
describe('incoming-credit notices', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '1000' } });
  });
  afterAll(() => t.close());

  const rail = () => t.app.ctx.rail;
  /** Answers every notice due, so each test starts from an empty outbox. */
  const drain = async () => {
    for (let n = await rail().takeIncoming(500); n.length > 0; n = await rail().takeIncoming(500)) {
      await rail().ackIncoming(n.map((x) => ({ handle: x.handle })));
    }
  };
  const noticeRow = (legId: string) =>
    t.app.ctx.store.db.selectFrom('rail_incoming_notices').selectAll().where('id', '=', legId).executeTakeFirst();
  const deposit = async (cvu: string, amountCentavos = 100) => {
    const { cbu, name, legalId } = DEFAULT_DEPOSITOR;
    return t.app.ctx.sandboxRail.depositFromOutside({ cvu, amountCentavos, fromCbu: cbu, fromName: name, fromLegalId: legalId });
  };

  it('one notice per completed credit to a customer: none for payouts out, reversals or credits still in progress', async () => {
    await drain();
    const a = await createOnboardedUser(t.app, { name: 'Ana', fundArs: 100 });
    const funded = await rail().takeIncoming(10);
    expect(funded).toHaveLength(1);
    expect(funded[0]).toMatchObject({ cvu: a.cvu, leg: { direction: 'credit', status: 'COMPLETED', amountCentavos: 10000, from: DEFAULT_DEPOSITOR.cbu } });
    await rail().ackIncoming([{ handle: funded[0]!.handle }]);

    const b = await createOnboardedUser(t.app, { name: 'Beto' });
    const submit = (reference: string, toKind: 'ALIAS' | 'CBU', to: string, amountCentavos: number) =>
      rail().submitTransfer({ reference: `${reference}-${a.id}`, fromCvu: a.cvu, toKind, to, amountCentavos });
    expect((await submit('ab', 'ALIAS', b.alias, 1000)).kind).toBe('accepted');
    expect((await submit('out', 'CBU', EXTERNAL_CBU, 500)).kind).toBe('accepted');
    expect((await submit('fail', 'ALIAS', 'sandbox.fail', 200)).kind).toBe('accepted');
    expect(await rail().takeIncoming(10)).toEqual([]);

    t.clock.advance(1000);
    await t.app.ctx.sandboxRail.settleDue();
    const settled = await rail().takeIncoming(10);
    expect(settled).toHaveLength(1);
    expect(settled[0]).toMatchObject({ cvu: b.cvu, leg: { from: a.cvu, fromName: 'Ana', to: b.cvu, toName: 'Beto', amountCentavos: 1000, isReversal: false } });
    // The notice carries the leg exactly as the listing shows it.
    expect((await rail().listLegs(b.cvu, 10))[0]).toEqual(settled[0]!.leg);
    await rail().ackIncoming([{ handle: settled[0]!.handle }]);
    expect(await rail().getBalance(a.cvu)).toBe(10000 - 1000 - 500);
    await t.app.ctx.sandboxRail.settleDue();
    expect(await rail().takeIncoming(10)).toEqual([]);
  });

  it('a taken notice is leased: not given again until the lease ends; answered it is gone, and a stale answer changes nothing', async () => {
    await drain();
    const u = await createOnboardedUser(t.app);
    const leg = await deposit(u.cvu);
    const [first] = await rail().takeIncoming(10);
    expect(first!.leg.id).toBe(leg.id);
    expect(await rail().takeIncoming(10)).toEqual([]);
    t.clock.advance(NOTICE_LEASE_MS);
    const [second] = await rail().takeIncoming(10);
    expect(second!.leg.id).toBe(leg.id);
    expect(second!.handle).not.toBe(first!.handle);
    await rail().ackIncoming([{ handle: first!.handle }]);
    expect(await noticeRow(leg.id)).toMatchObject({ status: 'pending' });
    await rail().ackIncoming([{ handle: second!.handle }]);
    expect(await noticeRow(leg.id)).toBeUndefined();
    t.clock.advance(NOTICE_LEASE_MS);
    expect(await rail().takeIncoming(10)).toEqual([]);
  });

  it('a notice taken too often without an answer is set aside as failed; an answered failure keeps its reason; neither comes back', async () => {
    await drain();
    const u = await createOnboardedUser(t.app);
    const poison = await deposit(u.cvu);
    for (let i = 0; i < NOTICE_MAX_TAKES; i++) {
      expect((await rail().takeIncoming(10)).map((n) => n.leg.id)).toEqual([poison.id]);
      t.clock.advance(NOTICE_LEASE_MS);
    }
    expect(await rail().takeIncoming(10)).toEqual([]);
    expect(await noticeRow(poison.id)).toMatchObject({ status: 'failed', failure_reason: `taken ${NOTICE_MAX_TAKES} times without an answer` });

    const refused = await deposit(u.cvu);
    const [n] = await rail().takeIncoming(10);
    await rail().ackIncoming([{ handle: n!.handle, failureReason: 'no wallet holds this account' }]);
    expect(await noticeRow(refused.id)).toMatchObject({ status: 'failed', failure_reason: 'no wallet holds this account', lock_token: null });
    t.clock.advance(NOTICE_LEASE_MS);
    expect(await rail().takeIncoming(10)).toEqual([]);
  });

  it('concurrent takers never hold the same notice, and every notice is given out', async () => {
    await drain();
    const u = await createOnboardedUser(t.app);
    const legs = [];
    for (let i = 0; i < 6; i++) legs.push((await deposit(u.cvu, 100 + i)).id);
    const [x, y] = await Promise.all([rail().takeIncoming(4), rail().takeIncoming(4)]);
    const ids = (ns: IncomingNotice[]) => ns.map((n) => n.leg.id);
    expect(ids(x!).filter((id) => ids(y!).includes(id))).toEqual([]);
    const rest = await rail().takeIncoming(10);
    expect([...ids(x!), ...ids(y!), ...ids(rest)].sort()).toEqual([...legs].sort());
  });
});

describe('upgrading a database from before notices', () => {
  it('backfills a notice for every completed incoming credit to a customer and stops keeping a world balance', async () => {
    const testStore = await createTestStore();
    const store = openStore({ databaseUrl: testStore.config.databaseUrl, sqliteFile: path.join(testStore.config.dataDir, 'wallet.sqlite') });
    try {
      const migrator = (upTo: string) => migratorFor(store, Object.fromEntries(Object.entries(allMigrations).filter(([name]) => name <= upTo)));
      await (await migrator('0012_zzz')).migrateToLatest();
      // The ledger as the earlier code left it: a deposit, a payout out, a failed payout and its reversal, a credit in flight.
      const at = '2026-11-20T15:00:00.000Z';
      const db = store.db;
      const account = { owner_ref: null, alias: null, holder_legal_id: '20123456786', kind: 'customer' as const, created_at: at };
      await db.insertInto('rail_accounts').values([
        { ...account, id: 'acc_a', cvu: '0000003100000000000010', holder_name: 'Ana', balance: 900 },
        { ...account, id: 'acc_b', cvu: '0000003100000000000028', holder_name: 'Beto', balance: 100 },
      ]).execute();
      await db.updateTable('rail_accounts').set({ balance: -1000 }).where('id', '=', 'acc_world').execute();
      const transfer = (id: string, from: string, to: string, status: 'COMPLETED' | 'FAILED' | 'IN_PROGRESS', amount: number) => ({
        id, reference: `ref_${id}`, from_account_id: from, to_account_id: to, from_identifier: `from_${from}`, from_name: 'F', from_legal_id: '1',
        to_identifier: `to_${to}`, to_name: 'T', to_legal_id: '2', amount, status, failure_reason: null, scenario: null, description: null,
        created_at: at, confirm_after: at, completed_at: null,
      });
      await db.insertInto('rail_transfers').values([
        transfer('trf_dep', 'acc_world', 'acc_a', 'COMPLETED', 1000),
        transfer('trf_out', 'acc_a', 'acc_world', 'COMPLETED', 50),
        transfer('trf_fail', 'acc_a', 'acc_world', 'FAILED', 30),
        transfer('trf_ab', 'acc_a', 'acc_b', 'COMPLETED', 100),
        transfer('trf_flight', 'acc_a', 'acc_b', 'IN_PROGRESS', 20),
      ]).execute();
      const leg = (id: string, transfer_id: string, account_id: string, amount: number, is_reversal = 0) => ({ id, transfer_id, account_id, amount, is_reversal, created_at: at });
      await db.insertInto('rail_legs').values([
        leg('dep_1', 'trf_dep', 'acc_world', -1000), leg('dep_2', 'trf_dep', 'acc_a', 1000),
        leg('dep_3', 'trf_out', 'acc_a', -50), leg('dep_4', 'trf_out', 'acc_world', 50),
        leg('dep_5', 'trf_fail', 'acc_a', -30), leg('dep_6', 'trf_fail', 'acc_world', 30),
        leg('dep_7', 'trf_fail', 'acc_world', -30, 1), leg('dep_8', 'trf_fail', 'acc_a', 30, 1),
        leg('dep_9', 'trf_ab', 'acc_a', -100), leg('dep_a', 'trf_ab', 'acc_b', 100),
        leg('dep_b', 'trf_flight', 'acc_a', -20), leg('dep_c', 'trf_flight', 'acc_b', 20),
      ]).execute();

      await (await migrator('9999')).migrateToLatest();
      const notices = await db.selectFrom('rail_incoming_notices').selectAll().orderBy('id').execute();
      expect(notices.map((n) => [n.id, n.cvu, n.status])).toEqual([
        ['dep_2', 'to_acc_a', 'pending'],
        ['dep_a', 'to_acc_b', 'pending'],
      ]);
      expect(JSON.parse(notices[1]!.leg)).toMatchObject({ id: 'dep_a', direction: 'credit', status: 'COMPLETED', amountCentavos: 100, from: 'from_acc_a' });
      const world = await db.selectFrom('rail_accounts').select('balance').where('id', '=', 'acc_world').executeTakeFirstOrThrow();
      expect(Number(world.balance)).toBe(0);
    } finally {
      await store.close();
      await testStore.drop();
    }
  });
});
