import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIND_TEST_WEBHOOK_TOKEN, startBindTestApp, waitFor, type BindTestApp } from '../../../../test/bind-harness.js';
import { bearer, createUser, eventTypes, expectError, randomCuit, setThresholds, withdraw, type TestUser } from '../../../../test/helpers.js';

const OUTSIDE_CBU = '2850590940090418135201';

/** The whole service with BANK_RAIL=bind, through its HTTP surface, against the BIND simulator. */
describe('the service on BIND (simulator)', () => {
  let b: BindTestApp;
  const logs: string[] = [];
  let ana: TestUser & { cvu: string };

  beforeAll(async () => {
    b = await startBindTestApp({
      env: { LOG_LEVEL: 'info' },
      deps: { logStream: new Writable({ write: (chunk, _enc, done) => void (logs.push(String(chunk)), done()) }) },
    });
    const u = await createUser(b.t.app, 'Ana');
    const res = await b.t.app.inject({ method: 'POST', url: '/v1/onboarding', headers: bearer(u.ownerToken), payload: { legal_id: randomCuit(), legal_name: 'Ana Pérez' } });
    expect(res.statusCode).toBe(200);
    ana = { ...u, cvu: res.json().cvu };
  });
  afterAll(() => b.close());

  const app = () => b.t.app;
  const simBalance = async (cvu: string) => (await b.control<{ balance: number }>('GET', `/__sim/accounts/${cvu}`)).body.balance;
  const balance = async (token: string) => (await app().inject({ method: 'GET', url: '/v1/balance', headers: bearer(token) })).json().available as string;
  const detect = () => app().jobs.depositDetection!.runOnce();
  const followUp = async () => {
    b.t.clock.advance(120_000);
    await app().jobs.payoutFollowUp!.runOnce();
  };
  const payout = async (id: string) => (await app().inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(ana.agentToken) })).json();

  it('onboarding issues the CVU and alias from BIND', async () => {
    const cvu = await app().inject({ method: 'GET', url: '/v1/cvu', headers: bearer(ana.agentToken) });
    expect(cvu.json()).toMatchObject({ cvu: ana.cvu, asset: 'ARS' });
    expect((await b.control('GET', `/__sim/accounts/${ana.cvu}`)).status).toBe(200);
    expect(await balance(ana.agentToken)).toBe('0.00');
  });

  it('a credit booked at BIND becomes one deposit and one deposit.detected, however often notified', async () => {
    const id = await b.credit(ana.cvu, '150000.55', 3);
    await waitFor(async () => {
      await detect();
      return (await eventTypes(app(), ana.id)).includes('deposit.detected');
    }, 'deposit.detected');
    // The other two notices (and the reconciliation) change nothing.
    await (app().ctx.rail as unknown as { reconcile(): Promise<number> }).reconcile();
    await detect();
    expect((await eventTypes(app(), ana.id)).filter((t) => t === 'deposit.detected')).toHaveLength(1);
    const deposits = (await app().inject({ method: 'GET', url: '/v1/deposits', headers: bearer(ana.agentToken) })).json().deposits;
    expect(deposits).toEqual([expect.objectContaining({ id, amount: '150000.55', direction: 'credit', to: ana.cvu })]);
    expect(await balance(ana.agentToken)).toBe('150000.55');
    expect(String(await simBalance(ana.cvu))).toBe('150000.55');
  });

  it('a lost webhook is found by the reconciliation job and announced once', async () => {
    await b.credit(ana.cvu, '10.00', 0);
    await app().jobs.bindReconciliation!.runOnce();
    await detect();
    expect((await eventTypes(app(), ana.id)).filter((t) => t === 'deposit.detected')).toHaveLength(2);
    expect(await balance(ana.agentToken)).toBe('150010.55');
  });

  it('a payout is submitted once, reaches confirmed, and carries the Coelsa id to the record and the receipt', async () => {
    const res = await withdraw(app(), ana.agentToken, { amount_ars: 1234.56, destination: OUTSIDE_CBU });
    expect(res.statusCode).toBe(201);
    const id = res.json().id as string;
    await b.settled();
    await followUp();
    const p = await payout(id);
    expect(p).toMatchObject({ status: 'confirmed', coelsa_id: expect.stringMatching(/^[0-9A-Z]{22}$/) });
    const receipt = await app().inject({ method: 'GET', url: `/v1/withdraws/${id}/receipt?format=json`, headers: bearer(ana.agentToken) });
    expect(receipt.json().coelsa_id).toBe(p.coelsa_id);
    const html = await app().inject({ method: 'GET', url: `/v1/withdraws/${id}/receipt`, headers: bearer(ana.agentToken) });
    expect(html.body).toContain(p.coelsa_id);
    expect(await balance(ana.agentToken)).toBe(String(await simBalance(ana.cvu)).replace(/^(\d+)$/, '$1.00'));
  });

  it('whatever the faults, each payout reaches BIND once per origin_id and ends confirmed', async () => {
    const ids: string[] = [];
    await b.fault('transfer', 'timeout');
    ids.push((await withdraw(app(), ana.agentToken, { amount_ars: 11, destination: OUTSIDE_CBU })).json().id);
    await b.fault('transfer', '500');
    ids.push((await withdraw(app(), ana.agentToken, { amount_ars: 12, destination: OUTSIDE_CBU })).json().id);
    await b.fault('transfer', 'unknown');
    ids.push((await withdraw(app(), ana.agentToken, { amount_ars: 13, destination: OUTSIDE_CBU })).json().id);
    await b.fault('status', '500', 2);
    await waitFor(async () => {
      await followUp();
      await b.settled();
      const states = await Promise.all(ids.map(async (id) => (await payout(id)).status));
      return states.every((s) => s === 'confirmed');
    }, 'every payout to be confirmed');
    const booked = (await b.control<{ transfers: { origin_id: string; amount: number }[] }>('GET', '/__sim/transfers')).body.transfers;
    const refs = await app().ctx.store.db.selectFrom('payouts').select(['id', 'rail_reference']).where('id', 'in', ids).execute();
    for (const r of refs) expect(booked.filter((t) => t.origin_id === r.rail_reference)).toHaveLength(1);
    expect(await balance(ana.agentToken)).toBe(String(await simBalance(ana.cvu)).replace(/^(\d+)$/, '$1.00'));
  });

  it('insufficient funds at BIND answer 502 WITHDRAW_FAILED', async () => {
    await setThresholds(app(), ana.ownerToken, { per_tx_limit_ars: 0, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 0 });
    const before = await simBalance(ana.cvu);
    const res = await withdraw(app(), ana.agentToken, { amount_ars: 1_000_000, destination: OUTSIDE_CBU });
    expectError(res, 502, 'WITHDRAW_FAILED');
    expect((await payout(res.json().payout_id)).failure_reason).toBe('insufficient_funds');
    expect(await simBalance(ana.cvu)).toBe(before);
  });

  it('a webhook with a wrong token changes nothing, and the token never reaches the logs', async () => {
    const before = await app().ctx.store.db.selectFrom('bind_inbox').select('id').execute();
    const notice = { id: 'CASHOUT-X', created: new Date().toISOString(), type: 'transfer.cvu.received', redeliveries: 0, data: { id: 'FAKECOELSA00000000000001', status: 'COMPLETED', details: { origin_credit: { cvu: ana.cvu } }, charge: { value: { currency: 'ARS', amount: 1000000 } } } };
    const wrong = await fetch(`${b.base}/v1/rails/bind/webhook/${'x'.repeat(BIND_TEST_WEBHOOK_TOKEN.length)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(notice) });
    expect(wrong.status).toBe(404);
    expect(await app().ctx.store.db.selectFrom('bind_inbox').select('id').execute()).toHaveLength(before.length);
    const right = await fetch(b.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"type":"TRANSFER","data":{"status":"COMPLETED"}}' });
    expect(right.status).toBe(200);
    expect(logs.join('')).toContain('/v1/rails/bind/webhook/[redacted]');
    expect(logs.join('')).not.toContain(BIND_TEST_WEBHOOK_TOKEN);
  });

  it('the sandbox helpers do not exist with BIND as the rail (D26)', async () => {
    const res = await app().inject({ method: 'POST', url: '/v1/sandbox/deposits', headers: bearer(ana.ownerToken), payload: { amount_ars: 100 } });
    expect(res.statusCode).toBe(404);
  });
});

describe('the BIND webhook with a source allowlist', () => {
  it('refuses a caller outside BIND_WEBHOOK_ALLOWED_IPS, token or not', async () => {
    const b = await startBindTestApp({ env: { BIND_WEBHOOK_ALLOWED_IPS: '10.9.9.9' } });
    try {
      const res = await fetch(b.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(404);
    } finally {
      await b.close();
    }
    const ok = await startBindTestApp({ env: { BIND_WEBHOOK_ALLOWED_IPS: '127.0.0.0/8' } });
    try {
      const res = await fetch(ok.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(200);
    } finally {
      await ok.close();
    }
  });
});
