import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBindTestApp, type BindTestApp } from '../../../../test/bind-harness.js';
import { bearer, createUser, randomCuit, setThresholds, withdraw } from '../../../../test/helpers.js';
import type { BankRail, RailAccount, TransferRequest } from '../rail.port.js';
import { rejectReasonOf, type BindRail } from './bind-rail.js';
import { centavosOf, parseBindJson, pesosOf, stringifyBindJson, decimal } from './bind-wire.js';

const OUTSIDE_CBU = '2850590940090418135201';
const ref = () => randomBytes(10).toString('hex').slice(0, 15).toUpperCase();

describe('BIND wire format', () => {
  it('turns centavos into pesos and back by digits, never through a float', () => {
    expect(pesosOf(123456)).toBe('1234.56');
    expect(pesosOf(29)).toBe('0.29');
    expect(pesosOf(900719925474099)).toBe('9007199254740.99');
    expect(centavosOf('0.29')).toBe(29);
    expect(centavosOf('1234.5')).toBe(123450);
    expect(centavosOf('1234.560')).toBe(123456);
    expect(centavosOf('1.001')).toBeNull();
    expect(centavosOf('1e3')).toBeNull();
    expect(centavosOf('abc')).toBeNull();
    expect(parseBindJson<{ value: { amount: string } }>('{"value":{"amount":9007199254740.99}}').value.amount).toBe('9007199254740.99');
    expect(stringifyBindJson({ value: { amount: decimal('100.10') }, note: 'x' })).toBe('{"value":{"amount":100.10},"note":"x"}');
  });

  it("maps BIND's 422 messages to our reasons", () => {
    expect(rejectReasonOf('Cuenta con saldo insuficiente')).toBe('insufficient_funds');
    expect(rejectReasonOf('El alias ingresado no existe')).toBe('destination_not_found');
    expect(rejectReasonOf('Cuenta destino inválida')).toBe('destination_not_found');
    expect(rejectReasonOf('Concepto inválido')).toBe('invalid_request');
    expect(rejectReasonOf('origin_id tiene más de 15 caracteres')).toBe('invalid_request');
  });
});

/** Faults at BIND never pay twice and never lose a deposit. */
describe('BIND adapter under faults (simulator)', () => {
  let b: BindTestApp;
  let rail: BankRail;
  beforeAll(async () => {
    b = await startBindTestApp();
    rail = b.t.app.ctx.rail;
  });
  afterAll(() => b.close());

  const funded = async (pesos: string): Promise<RailAccount> => {
    const a = await rail.openAccount({ ownerRef: `usr_${randomBytes(6).toString('hex')}`, legalId: randomCuit(), legalName: 'Bruno Díaz' });
    await b.credit(a.cvu, pesos, 0);
    return a;
  };
  const bookedWith = async (reference: string) =>
    (await b.control<{ transfers: { origin_id: string; amount: number; status: string }[] }>('GET', '/__sim/transfers')).body.transfers.filter(
      (x) => x.origin_id === reference,
    );

  it('renews a token that expired mid-run, once, and goes on', async () => {
    const a = await funded('12.34');
    expect(await rail.getBalance(a.cvu)).toBe(1234);
    await b.control('POST', '/__sim/tokens/expire');
    expect(await rail.getBalance(a.cvu)).toBe(1234);
  });

  it('a 500 on submission is unknown; asking finds nothing, and the same reference then pays once', async () => {
    const a = await funded('100.00');
    const req: TransferRequest = { reference: ref(), fromCvu: a.cvu, toKind: 'CBU', to: OUTSIDE_CBU, amountCentavos: 1000 };
    await b.fault('transfer', '500');
    expect((await rail.submitTransfer(req)).kind).toBe('unknown');
    expect(await rail.getTransfer(req.reference)).toBeNull();
    expect((await rail.submitTransfer(req)).kind).toBe('accepted');
    expect(await bookedWith(req.reference)).toHaveLength(1);
    expect(await rail.getBalance(a.cvu)).toBe(9000);
  });

  it("BIND's UNKNOWN is unknown, never failed; the transfer is there once", async () => {
    const a = await funded('100.00');
    const req: TransferRequest = { reference: ref(), fromCvu: a.cvu, toKind: 'CBU', to: OUTSIDE_CBU, amountCentavos: 2000 };
    await b.fault('transfer', 'unknown');
    expect((await rail.submitTransfer(req)).kind).toBe('unknown');
    await b.fault('status', 'unknown');
    expect((await rail.getTransfer(req.reference))?.status).toBe('IN_PROGRESS');
    await b.settled();
    const t = await rail.getTransfer(req.reference);
    expect(t?.status).toBe('COMPLETED');
    expect(t?.coelsaId).toMatch(/^[0-9A-Z]{22}$/);
    expect(await bookedWith(req.reference)).toHaveLength(1);
  });

  it('a token endpoint that does not answer: the transfer was never sent, so it is turned away and moves nothing', async () => {
    const a = await funded('100.00');
    await b.control('POST', '/__sim/tokens/expire');
    await b.fault('token', 'timeout');
    const req: TransferRequest = { reference: ref(), fromCvu: a.cvu, toKind: 'CBU', to: OUTSIDE_CBU, amountCentavos: 500 };
    expect((await rail.submitTransfer(req)).kind).toBe('turned_away');
    expect(await bookedWith(req.reference)).toHaveLength(0);
    expect(await rail.getTransfer(req.reference)).toBeNull();
    expect((await rail.submitTransfer(req)).kind).toBe('accepted');
    expect(await bookedWith(req.reference)).toHaveLength(1);
  });

  it('a status query that fails throws, so the follow-up asks again later', async () => {
    await b.fault('status', '500');
    await expect(rail.getTransfers(['NEVERSENT000003'])).rejects.toThrow(/HTTP 500/);
    // Many at once, and BIND answers none of the first round (four at a time): it is down, so the rest are not asked.
    const statusCalls = async () => (await b.control<Record<string, number>>('GET', '/__sim/calls')).body.status ?? 0;
    const before = await statusCalls();
    await b.fault('status', '500', 4);
    const many = Array.from({ length: 10 }, (_, i) => `NEVERSENT10000${i}`.slice(0, 15));
    await expect(rail.getTransfers(many)).rejects.toThrow(/HTTP 500/);
    expect((await statusCalls()) - before).toBe(4);
    await b.fault('lookup', '500');
    await expect(rail.resolve('CBU', OUTSIDE_CBU)).rejects.toThrow(/HTTP 500/);
  });

  it('a duplicated webhook is kept once; a lost one is found by the reconciliation, once', async () => {
    const a = await rail.openAccount({ ownerRef: `usr_${randomBytes(6).toString('hex')}`, legalId: randomCuit(), legalName: 'Carla' });
    const db = b.t.app.ctx.store.db;
    const rows = (id: string) => db.selectFrom('bind_inbox').selectAll().where('id', '=', id).execute();
    const dup = await b.credit(a.cvu, '5.00', 3);
    const { waitFor } = await import('../../../../test/bind-harness.js');
    await waitFor(async () => (await rows(dup)).length === 1, 'the first notice');
    const lost = await b.credit(a.cvu, '6.00', 0);
    expect(await rows(lost)).toHaveLength(0);
    const reconcile = () => (rail as BindRail).reconcile();
    expect(await reconcile()).toBeGreaterThanOrEqual(1);
    expect(await rows(lost)).toMatchObject([{ source: 'reconciliation', cvu: a.cvu }]);
    expect(await reconcile()).toBe(0);
    const mine = (await rail.takeIncoming(100)).filter((n) => n.cvu === a.cvu);
    expect(mine.map((n) => n.leg.amountCentavos).sort()).toEqual([500, 600]);
  });
});

describe('BIND reconciliation when BIND pages its listing shorter than asked', () => {
  it('reads every page: credits whose webhook was lost, past the first 50, are found', { timeout: 60_000 }, async () => {
    // BIND documents `length` (default 50) but no maximum; one that caps pages at 50 answers 50 when asked for 100.
    const b = await startBindTestApp({ listingMaxLength: 50 });
    try {
      const rail = b.t.app.ctx.rail as BindRail;
      const a = await rail.openAccount({ ownerRef: `usr_${randomBytes(6).toString('hex')}`, legalId: randomCuit(), legalName: 'Páginas Cortas' });
      for (let i = 0; i < 120; i++) await b.credit(a.cvu, `${i + 1}.00`, 0);
      expect(await rail.reconcile()).toBe(120);
      expect(await rail.reconcile()).toBe(0);
    } finally {
      await b.close();
    }
  });
});

describe('BIND credit dates', () => {
  it('a date BIND gives far in the future (a captured notice carried end_date 2999-12-31) is not the deposit date', async () => {
    const { creditOf } = await import('./bind-inbox.js');
    const at = '2026-11-28T15:00:00.000Z';
    const t = {
      id: 'ADV000000000000000000001',
      status: 'COMPLETED',
      details: { origin_credit: { cvu: '0000322100000000000017', cuit: '20111111112' } },
      counterparty: { id: '30715924605', name: 'X', account_routing: { scheme: 'CBU', address: '0110599540000042007856' } },
      charge: { summary: 'VAR', value: { currency: 'ARS', amount: '10.00' } },
    };
    const dated = (start_date: string | null, end_date: string | null) => creditOf({ ...t, start_date, end_date } as never, at)!.leg.creationTime;
    expect(dated('', '2999-12-31T00:00:00.000Z')).toBe(at);
    expect(dated('2026-11-28T14:59:00.000Z', '2999-12-31T00:00:00.000Z')).toBe('2026-11-28T14:59:00.000Z');
    expect(dated(null, '2026-11-28T14:58:00.000Z')).toBe('2026-11-28T14:58:00.000Z');
  });

  it('a transfer whose state says its money has not arrived is no credit: the reconciliation reads a listing not filtered by state', async () => {
    const { creditOf, unreadableCredit } = await import('./bind-inbox.js');
    const at = '2026-11-28T15:00:00.000Z';
    const t = {
      id: 'ADV000000000000000000002',
      details: { origin_credit: { cvu: '0000322100000000000017', cuit: '20111111112' } },
      charge: { summary: 'VAR', value: { currency: 'ARS', amount: '10.00' } },
      start_date: null,
      end_date: null,
    };
    expect(creditOf({ ...t, status: 'COMPLETED' } as never, at)).not.toBeNull();
    for (const status of ['IN_PROGRESS', 'PENDING', 'FAILED']) {
      expect(creditOf({ ...t, status } as never, at)).toBeNull();
      expect(unreadableCredit({ ...t, status } as never, at)).toBeNull();
    }
  });
});

describe('BIND transfers that stay in progress', () => {
  it('are asked about less often as they age, not at every pass of the follow-up', { timeout: 60_000 }, async () => {
    // A transfer to a CVU "puede quedar en IN_PROGRESS hasta el cierre del día": the simulator holds it 10 minutes.
    const b = await startBindTestApp({ settleMs: 600_000 });
    try {
      const app = b.t.app;
      const u = await createUser(app, 'Lenta Espera');
      const on = await app.inject({ method: 'POST', url: '/v1/onboarding', headers: bearer(u.ownerToken), payload: { legal_id: randomCuit(), legal_name: 'Lenta Espera' } });
      await setThresholds(app, u.ownerToken, { per_tx_limit_ars: 0, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 0 });
      await b.credit(on.json().cvu, '100.00', 0);
      expect((await withdraw(app, u.agentToken, { amount_ars: 10, destination: OUTSIDE_CBU })).statusCode).toBe(201);
      const statusCalls = async () => (await b.control<Record<string, number>>('GET', '/__sim/calls')).body.status ?? 0;
      const before = await statusCalls();
      // A minute of follow-up passes, one a second.
      for (let i = 0; i < 60; i++) {
        b.t.clock.advance(1_000);
        await app.jobs.payoutFollowUp!.runOnce();
      }
      // About 13 (waits of 2 s growing to 15 s); the simulator dates the transfer by the real clock and the app runs on
      // the test's, so the bound leaves room. Asked at every pass, it was 60.
      const asked = (await statusCalls()) - before;
      expect(asked).toBeGreaterThan(0);
      expect(asked).toBeLessThan(30);
    } finally {
      await b.close();
    }
  });
});
