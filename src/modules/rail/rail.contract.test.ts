import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBindTestApp, waitFor, type BindTestApp } from '../../../test/bind-harness.js';
import { randomCuit, startTestApp, type TestApp } from '../../../test/helpers.js';
import type { BankRail, IncomingNotice, RailAccount, TransferRequest } from './rail.port.js';
import { NOTICE_LEASE_MS } from './notice-queue.js';
import { MAGIC_CBUS } from './sandbox/sandbox-names.js';

/** A bank account at another bank (valid check digits), the usual payee. */
const OUTSIDE_CBU = '2850590940090418135201';

/** What the contract needs of each rail besides the port: put money in, let time pass, play a fault. */
interface Harness {
  rail: BankRail;
  /** Books a completed incoming credit of `pesos` to `cvu`. */
  fund(cvu: string, pesos: string): Promise<void>;
  /** Lets every accepted transfer settle. */
  settle(): Promise<void>;
  /** A destination whose next transfer is accepted, then fails at settlement (the money comes back). */
  failing(): Promise<Pick<TransferRequest, 'toKind' | 'to'>>;
  /** A destination whose next submission goes through but whose answer is lost (a timeout). */
  unanswered(): Promise<Pick<TransferRequest, 'toKind' | 'to'>>;
  /** Moves past a notice's lease. */
  pastLease(): void;
  close(): Promise<void>;
}

async function sandboxHarness(): Promise<Harness> {
  const t: TestApp = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '1000' } });
  return {
    rail: t.app.ctx.rail,
    fund: async (cvu, pesos) => {
      const c = Math.round(Number(pesos) * 100);
      await t.app.ctx.sandboxRail.depositFromOutside({ cvu, amountCentavos: c, fromCbu: '0110599540000042007856', fromName: 'Distribuidora', fromLegalId: '30715924605' });
    },
    settle: async () => {
      t.clock.advance(5_000);
      await t.app.jobs.railSettlement!.runOnce();
    },
    failing: async () => ({ toKind: 'CBU', to: MAGIC_CBUS.fail }),
    unanswered: async () => ({ toKind: 'CBU', to: MAGIC_CBUS.timeout }),
    pastLease: () => t.clock.advance(NOTICE_LEASE_MS + 1),
    close: () => t.close(),
  };
}

async function bindHarness(): Promise<Harness & { b: BindTestApp }> {
  const b = await startBindTestApp();
  return {
    b,
    rail: b.t.app.ctx.rail,
    fund: async (cvu, pesos) => {
      const id = await b.credit(cvu, pesos);
      // The notice arrives by webhook; wait until the inbox holds it.
      await waitFor(async () => !!(await b.t.app.ctx.store.db.selectFrom('bind_inbox').select('id').where('id', '=', id).executeTakeFirst()), 'the webhook');
    },
    settle: () => b.settled(),
    failing: async () => {
      await b.fault('settle', 'fail');
      return { toKind: 'CBU', to: OUTSIDE_CBU };
    },
    unanswered: async () => {
      await b.fault('transfer', 'timeout');
      return { toKind: 'CBU', to: OUTSIDE_CBU };
    },
    pastLease: () => b.t.clock.advance(NOTICE_LEASE_MS + 1),
    close: () => b.close(),
  };
}

const ref = () => randomBytes(10).toString('hex').slice(0, 15).toUpperCase();

/** Takes notices until one for `cvu` shows up (other accounts' notices are answered as they come). */
async function takeFor(rail: BankRail, cvu: string): Promise<IncomingNotice> {
  let found: IncomingNotice | undefined;
  await waitFor(async () => {
    const taken = await rail.takeIncoming(100);
    found = taken.find((n) => n.cvu === cvu);
    await rail.ackIncoming(taken.filter((n) => n !== found).map((n) => ({ handle: n.handle })));
    return !!found;
  }, `a notice for ${cvu}`);
  return found!;
}

/**
 * One contract for every BankRail adapter (docs/bank-rail.md "Rules every adapter keeps"): the sandbox bank, and
 * the BIND adapter against the BIND simulator.
 */
describe.each([
  ['sandbox bank', sandboxHarness],
  ['BIND adapter on the BIND simulator', bindHarness],
] as const)('BankRail contract: %s', (_name, start) => {
  let h: Harness;
  let rail: BankRail;
  beforeAll(async () => {
    h = await start();
    rail = h.rail;
  });
  afterAll(() => h.close());

  const open = (ownerRef = `usr_${randomBytes(6).toString('hex')}`) => rail.openAccount({ ownerRef, legalId: randomCuit(), legalName: 'Ana Pérez' });
  const funded = async (pesos: string): Promise<RailAccount> => {
    const a = await open();
    await h.fund(a.cvu, pesos);
    return a;
  };

  it('opens one account per owner, however often asked', async () => {
    const owner = `usr_${randomBytes(6).toString('hex')}`;
    const a = await open(owner);
    const again = await open(owner);
    expect(again).toEqual(a);
    expect(a.cvu).toMatch(/^000\d{19}$/);
    expect(a.alias).toMatch(/^[a-z0-9.-]{6,20}$/i);
  });

  it('resolves its own accounts by number and alias, and says null for an unknown alias', async () => {
    const a = await open();
    const byCvu = await rail.resolve('CVU', a.cvu);
    expect(byCvu).toMatchObject({ accountNumber: a.cvu, holderName: 'Ana Pérez' });
    expect(await rail.resolve('ALIAS', a.alias)).toMatchObject({ kind: 'ALIAS', accountNumber: a.cvu });
    expect(await rail.resolve('ALIAS', 'nadie.tiene.esto')).toBeNull();
    expect((await rail.resolve('CBU', OUTSIDE_CBU))?.accountNumber).toBe(OUTSIDE_CBU);
  });

  it('keeps amounts exact to the centavo both ways', async () => {
    const a = await funded('1234.56');
    expect(await rail.getBalance(a.cvu)).toBe(123456);
    const notice = await takeFor(rail, a.cvu);
    expect(notice.leg).toMatchObject({ amountCentavos: 123456, direction: 'credit', status: 'COMPLETED', to: a.cvu });
    await rail.ackIncoming([{ handle: notice.handle }]);
    const out = await rail.submitTransfer({ reference: ref(), fromCvu: a.cvu, toKind: 'CBU', to: OUTSIDE_CBU, amountCentavos: 29 });
    expect(out.kind).toBe('accepted');
    expect(await rail.getBalance(a.cvu)).toBe(123427);
    const legs = await rail.listLegs(a.cvu, 10);
    expect(legs.map((l) => [l.direction, l.amountCentavos]).sort()).toEqual([
      ['credit', 123456],
      ['debit', 29],
    ]);
  });

  it('never moves money twice for one reference', async () => {
    const a = await funded('100.00');
    const req: TransferRequest = { reference: ref(), fromCvu: a.cvu, toKind: 'CBU', to: OUTSIDE_CBU, amountCentavos: 4000 };
    const first = await rail.submitTransfer(req);
    const second = await rail.submitTransfer(req);
    expect(first.kind).toBe('accepted');
    expect(second.kind).toBe('accepted');
    if (first.kind === 'accepted' && second.kind === 'accepted') expect(second.transfer.providerTransferId).toBe(first.transfer.providerTransferId);
    expect(await rail.getBalance(a.cvu)).toBe(6000);
  });

  it('settles an accepted transfer, asked by reference one at a time or in a batch', async () => {
    const a = await funded('50.00');
    const reference = ref();
    const out = await rail.submitTransfer({ reference, fromCvu: a.cvu, toKind: 'CBU', to: OUTSIDE_CBU, amountCentavos: 1000 });
    expect(out.kind === 'accepted' && out.transfer.status).toBe('IN_PROGRESS');
    await h.settle();
    expect((await rail.getTransfer(reference))?.status).toBe('COMPLETED');
    const batch = await rail.getTransfers([reference, 'NEVERSENT000001']);
    expect([...batch.keys()]).toEqual([reference]);
    expect(await rail.getTransfer('NEVERSENT000002')).toBeNull();
  });

  it('gives the money back when an accepted transfer fails', async () => {
    const a = await funded('80.00');
    const reference = ref();
    const out = await rail.submitTransfer({ reference, fromCvu: a.cvu, ...(await h.failing()), amountCentavos: 3000 });
    expect(out.kind).toBe('accepted');
    expect(await rail.getBalance(a.cvu)).toBe(5000);
    await h.settle();
    expect((await rail.getTransfer(reference))?.status).toBe('FAILED');
    expect(await rail.getBalance(a.cvu)).toBe(8000);
  });

  it('answers an unanswered submission as unknown, and the reference then tells what happened', async () => {
    const a = await funded('60.00');
    const req: TransferRequest = { reference: ref(), fromCvu: a.cvu, ...(await h.unanswered()), amountCentavos: 2500 };
    const out = await rail.submitTransfer(req);
    expect(out.kind).toBe('unknown');
    const found = await rail.getTransfer(req.reference);
    expect(found?.status).toMatch(/IN_PROGRESS|COMPLETED/);
    const again = await rail.submitTransfer(req);
    expect(again.kind === 'accepted' || again.kind === 'unknown').toBe(true);
    expect(await rail.getBalance(a.cvu)).toBe(3500);
  });

  it('rejects what the balance does not cover, moving nothing', async () => {
    const a = await funded('10.00');
    const req: TransferRequest = { reference: ref(), fromCvu: a.cvu, toKind: 'CBU', to: OUTSIDE_CBU, amountCentavos: 1001 };
    const out = await rail.submitTransfer(req);
    expect(out).toMatchObject({ kind: 'rejected', reason: 'insufficient_funds' });
    expect(await rail.getBalance(a.cvu)).toBe(1000);
    expect(await rail.getTransfer(req.reference)).toBeNull();
  });

  it('hands out each incoming notice at least once, and not again once answered', async () => {
    const a = await funded('7.00');
    const first = await takeFor(rail, a.cvu);
    // Unanswered, it comes back after its lease, with the same leg id (the consumer dedupes on it).
    h.pastLease();
    const again = await takeFor(rail, a.cvu);
    expect(again.leg.id).toBe(first.leg.id);
    await rail.ackIncoming([{ handle: again.handle }]);
    h.pastLease();
    const rest = await rail.takeIncoming(100);
    expect(rest.filter((n) => n.cvu === a.cvu)).toEqual([]);
    await rail.ackIncoming(rest.map((n) => ({ handle: n.handle })));
  });
});
