import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOnboardedUser, startTestApp, type TestApp } from '../../../../test/helpers.js';
import { EXTERNAL_CBU } from './sandbox-names.js';

/** The sandbox bank's own guarantees (D25), exercised through the BankRail port over the real store. */
describe('sandbox bank rail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '2000' } });
  });
  afterAll(() => t.close());

  const totalBalance = async () => {
    const r = await t.app.ctx.store.db
      .selectFrom('rail_accounts')
      .select(sql<number>`coalesce(sum(balance), 0)`.as('total'))
      .executeTakeFirstOrThrow();
    return Number(r.total);
  };

  it('100 concurrent transfers never overdraw: accepted ones fit the balance and the ledger stays balanced', async () => {
    const a = await createOnboardedUser(t.app, { fundArs: 1000 });
    const before = await totalBalance();
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
    expect(await totalBalance()).toBe(before);
    const unbalanced = await t.app.ctx.store.db
      .selectFrom('rail_legs')
      .select(['transfer_id', sql<number>`sum(amount)`.as('s')])
      .groupBy('transfer_id')
      .having(sql`sum(amount)`, '!=', 0)
      .execute();
    expect(unbalanced).toEqual([]);
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
});
