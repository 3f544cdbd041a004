import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBindTestApp, waitFor, type BindTestApp } from '../../../../test/bind-harness.js';
import { bearer, createUser, eventTypes, expectError, randomCuit, setThresholds, withdraw, type TestUser } from '../../../../test/helpers.js';
import { RailPartialAnswer } from '../rail.port.js';
import { BIND_PATHS } from './bind-wire.js';

const OUTSIDE_CBU = '2850590940090418135201';
const STRANGER = '0000322100000000000017';

type Wallet = TestUser & { cvu: string };

async function onboard(b: BindTestApp, name: string): Promise<Wallet> {
  const u = await createUser(b.t.app, name);
  const res = await b.t.app.inject({ method: 'POST', url: '/v1/onboarding', headers: bearer(u.ownerToken), payload: { legal_id: randomCuit(), legal_name: name } });
  expect(res.statusCode).toBe(200);
  await setThresholds(b.t.app, u.ownerToken, { per_tx_limit_ars: 0, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 0 });
  return { ...u, cvu: res.json().cvu };
}

/** A BIND notice as BIND posts it ("Aviso de Transferencia Entrante en CVU"), amount written as given. */
function notice(id: string, cvu: string, amount: string, status = 'COMPLETED'): string {
  return (
    `{"id":"CASHOUT-${id}","object":"ApiTransaction","created":"${new Date().toISOString()}","type":"transfer.cvu.received","redeliveries":0,` +
    `"data":{"id":"${id}","type":"TRANSFER","status":"${status}","details":{"type":"TRANSFERENCIAS_RECIBIDAS","origin_credit":{"cvu":"${cvu}","cuit":"20111111112"}},` +
    `"counterparty":{"id":"30715924605","name":"X","account_routing":{"scheme":"CBU","address":"0110599540000042007856"}},` +
    `"transaction_ids":["${id}"],"start_date":null,"end_date":null,"charge":{"summary":"VAR","value":{"currency":"ARS","amount":${amount}}}}}`
  );
}

/**
 * A gateway in front of BIND (at `target()`): forwards every call, and answers one with what `rewrite` returns instead
 * of BIND's answer (BIND has acted on it by then), or with BIND's answer when it returns null.
 */
async function gatewayInFront(
  target: () => string,
  rewrite: (req: IncomingMessage, upstream: Response) => { status: number; body: unknown } | null,
): Promise<{ gateway: Server; url: string }> {
  const gateway = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k))) as Record<string, string>;
    const upstream = await fetch(`${target()}${req.url}`, { method: req.method, headers, body: req.method === 'POST' ? Buffer.concat(chunks) : undefined });
    const text = await upstream.text();
    const instead = rewrite(req, upstream);
    if (instead) return void res.writeHead(instead.status, { 'content-type': 'application/json' }).end(JSON.stringify(instead.body));
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(text);
  });
  await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
  return { gateway, url: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}` };
}

let seq = 0;
const coelsa = () => `ADV${Date.now().toString(36).toUpperCase()}${String(++seq).padStart(6, '0')}`.slice(0, 22).padEnd(22, '0');

/** Adversarial runs of the service on BIND: money is never paid twice, lost, or announced twice. */
describe('BIND adversarial (simulator)', () => {
  let b: BindTestApp;
  let ana: Wallet;
  beforeAll(async () => {
    b = await startBindTestApp();
    ana = await onboard(b, 'Ana Adversaria');
    await b.credit(ana.cvu, '100000.00', 0);
    await b.t.app.jobs.bindReconciliation!.runOnce();
    await b.t.app.jobs.depositDetection!.runOnce();
  });
  afterAll(() => b.close());

  const app = () => b.t.app;
  const simBalance = async (cvu: string) => String((await b.control<{ balance: number }>('GET', `/__sim/accounts/${cvu}`)).body.balance);
  const apiBalance = async (w: Wallet) => (await app().inject({ method: 'GET', url: '/v1/balance', headers: bearer(w.agentToken) })).json().available as string;
  const payout = async (w: Wallet, id: string) => (await app().inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(w.agentToken) })).json();
  const followUp = async () => {
    b.t.clock.advance(120_000);
    await app().jobs.payoutFollowUp!.runOnce();
  };
  const detect = () => app().jobs.depositDetection!.runOnce();
  const bookedFor = async (id: string) => {
    const ref = (await app().ctx.store.db.selectFrom('payouts').select('rail_reference').where('id', '=', id).executeTakeFirstOrThrow()).rail_reference;
    return (await b.control<{ transfers: { origin_id: string; status: string }[] }>('GET', '/__sim/transfers')).body.transfers.filter((t) => t.origin_id === ref);
  };
  const post = (body: string, url = b.webhookUrl) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const inboxRow = (id: string) => app().ctx.store.db.selectFrom('bind_inbox').selectAll().where('id', '=', id).executeTakeFirst();

  it('a transfer that times out and then fails at BIND: one transfer, the payout failed once, the money back', async () => {
    const before = await simBalance(ana.cvu);
    await b.fault('settle', 'fail');
    await b.fault('transfer', 'timeout');
    const key = `timeout-fail-${Date.now()}`;
    const res = await withdraw(app(), ana.agentToken, { amount_ars: 321.09, destination: OUTSIDE_CBU }, key);
    // The simulator fails it before the client gives up: asked after the timeout, BIND already says FAILED, which
    // is the rail rejecting the payout, so the contract's 502, never a 201 "submitted" for money that will not move.
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ error: 'WITHDRAW_FAILED' });
    const id = res.json().payout_id as string;
    const again = await withdraw(app(), ana.agentToken, { amount_ars: 321.09, destination: OUTSIDE_CBU }, key);
    expect(again.statusCode).toBe(502);
    expect(again.json()).toEqual(res.json());
    await b.settled();
    await waitFor(async () => {
      await followUp();
      return (await payout(ana, id)).status === 'failed';
    }, 'the payout to fail');
    await followUp();
    await followUp();
    expect(await bookedFor(id)).toEqual([expect.objectContaining({ status: 'FAILED' })]);
    const events = await eventTypes(app(), ana.id, id);
    expect(events.filter((t) => t === 'payout.failed')).toHaveLength(1);
    expect(events).not.toContain('payout.submitted');
    // It reached the bank, so the history has it (D34), as failed.
    const history = (await app().inject({ url: '/v1/transactions?limit=100', headers: bearer(ana.ownerToken) })).json().transactions as { amount: number; status: string }[];
    expect(history.filter((h) => h.amount === 321.09)).toEqual([expect.objectContaining({ status: 'failed' })]);
    expect(await simBalance(ana.cvu)).toBe(before);
    expect(await apiBalance(ana)).toBe(Number(before).toFixed(2));
    // The reversal is not a deposit.
    await app().jobs.bindReconciliation!.runOnce();
    await detect();
    expect((await eventTypes(app(), ana.id)).filter((t) => t === 'deposit.detected')).toHaveLength(1);
  });

  it('a transfer reported submitted that BIND then fails: payout failed once, wallet back, replay answers the failure', async () => {
    const before = await simBalance(ana.cvu);
    await b.fault('settle', 'fail');
    const key = `adv-${Date.now()}`;
    const res = await withdraw(app(), ana.agentToken, { amount_ars: 55.55, destination: OUTSIDE_CBU }, key);
    expect(res.statusCode).toBe(201);
    const id = res.json().id as string;
    await b.settled();
    await followUp();
    await followUp();
    const p = await payout(ana, id);
    expect(p.status).toBe('failed');
    expect((await eventTypes(app(), ana.id, id)).filter((t) => t === 'payout.failed')).toHaveLength(1);
    expect(await bookedFor(id)).toHaveLength(1);
    expect(await simBalance(ana.cvu)).toBe(before);
    // The same idempotency key never sends a second transfer.
    const again = await withdraw(app(), ana.agentToken, { amount_ars: 55.55, destination: OUTSIDE_CBU }, key);
    expect(again.statusCode).toBeLessThan(500);
    expect(await bookedFor(id)).toHaveLength(1);
    expect((await b.control<{ transfers: unknown[] }>('GET', '/__sim/transfers')).body.transfers.length).toBe(2);
  });

  it('status queries that time out or answer UNKNOWN never fail or double a payout', async () => {
    const before = Number(await simBalance(ana.cvu));
    await b.fault('transfer', 'unknown');
    await b.fault('status', 'timeout', 2);
    const res = await withdraw(app(), ana.agentToken, { amount_ars: 10.01, destination: OUTSIDE_CBU });
    expect(res.statusCode).toBeLessThan(300);
    const id = res.json().id as string;
    await b.fault('status', 'unknown', 3);
    await waitFor(async () => {
      await followUp();
      return (await payout(ana, id)).status === 'confirmed';
    }, 'the payout to be confirmed', 20_000);
    expect(await bookedFor(id)).toHaveLength(1);
    expect(Number(await simBalance(ana.cvu))).toBeCloseTo(before - 10.01, 2);
  }, 30_000);

  it('a transfer whose status BIND keeps failing to give holds back none of the others', async () => {
    const ids: string[] = [];
    for (const amount of [11.11, 12.12, 13.13]) {
      const res = await withdraw(app(), ana.agentToken, { amount_ars: amount, destination: OUTSIDE_CBU });
      expect(res.statusCode).toBe(201);
      ids.push(res.json().id as string);
    }
    const refOf = async (id: string) => (await app().ctx.store.db.selectFrom('payouts').select('rail_reference').where('id', '=', id).executeTakeFirstOrThrow()).rail_reference;
    await b.fault('status', '500', 1000, await refOf(ids[0]!));
    try {
      await b.settled();
      await followUp();
      expect((await payout(ana, ids[1]!)).status).toBe('confirmed');
      expect((await payout(ana, ids[2]!)).status).toBe('confirmed');
      expect((await payout(ana, ids[0]!)).status).toBe('submitted');
    } finally {
      await b.fault('status', '500', 0); // BIND answers for it again
    }
    await followUp();
    expect((await payout(ana, ids[0]!)).status).toBe('confirmed');
    for (const id of ids) expect(await bookedFor(id)).toHaveLength(1);
  });

  it('the same key twice while BIND hangs, and the follow-up running meanwhile: one transfer, one payout', async () => {
    const before = Number(await simBalance(ana.cvu));
    await b.fault('transfer', 'timeout');
    const key = `hang-${Date.now()}`;
    const first = withdraw(app(), ana.agentToken, { amount_ars: 7.07, destination: OUTSIDE_CBU }, key);
    await new Promise((r) => setTimeout(r, 200));
    const second = withdraw(app(), ana.agentToken, { amount_ars: 7.07, destination: OUTSIDE_CBU }, key);
    // The follow-up, past any grace, while the first request still waits for BIND.
    await followUp();
    const [r1, r2] = await Promise.all([first, second]);
    expect(r1.statusCode, r1.body).toBeLessThan(300);
    const id = r1.json().id as string;
    if (r2.statusCode < 300) expect(r2.json().id).toBe(id);
    else expect(r2.statusCode, r2.body).toBe(409);
    await b.settled();
    await waitFor(async () => {
      await followUp();
      return (await payout(ana, id)).status === 'confirmed';
    }, 'the payout to be confirmed');
    expect(await bookedFor(id)).toHaveLength(1);
    const all = await app().ctx.store.db.selectFrom('payouts').select('id').where('idempotency_key', '=', key).execute();
    expect(all).toHaveLength(1);
    expect(Number(await simBalance(ana.cvu))).toBeCloseTo(before - 7.07, 2);
  }, 20_000);

  it('a webhook without a token, or with a longer one, is refused and stores nothing', async () => {
    const id = coelsa();
    const body = notice(id, ana.cvu, '999.00');
    for (const url of [b.webhookUrl.replace(/[^/]+$/, ''), `${b.webhookUrl}x`, b.webhookUrl.slice(0, -1), `${b.webhookUrl}/`]) {
      const res = await post(body, url);
      expect(res.status, url).toBe(404);
    }
    expect(await inboxRow(id)).toBeUndefined();
  });

  it('amounts that are not exact centavos, huge, negative or zero are not credited, but kept as failed for the operator; one not COMPLETED is left for its completion', async () => {
    const ids: string[] = [];
    for (const amount of ['10.005', '"10.005"', '1e3', '99999999999999999999.99', '-5.00', '0', '0.00', 'null', '"abc"', '12345678901234567890']) {
      const id = coelsa();
      ids.push(id);
      const res = await post(notice(id, ana.cvu, amount));
      expect(res.status, amount).toBe(200);
    }
    // The money is at BIND: a row failed with its reason is what the operator's alert sees (it left no trace).
    for (const i of ids) expect(await inboxRow(i)).toMatchObject({ status: 'failed', failure_reason: expect.stringMatching(/^unreadable: amount not exact centavos/) });
    // A readable copy that comes later (BIND's redelivery, or the listing) takes its place and is credited once.
    const dora = await onboard(b, 'Dora Arreglo');
    const fixed = coelsa();
    expect((await post(notice(fixed, dora.cvu, '10.005'))).status).toBe(200);
    expect(await inboxRow(fixed)).toMatchObject({ status: 'failed' });
    expect((await post(notice(fixed, dora.cvu, '10.00'))).status).toBe(200);
    expect(await inboxRow(fixed)).toMatchObject({ status: 'pending', failure_reason: null });
    expect((await post(notice(fixed, dora.cvu, '10.00'))).status).toBe(200);
    const id = coelsa();
    expect((await post(notice(id, ana.cvu, '5.00', 'IN_PROGRESS'))).status).toBe(200);
    expect(await inboxRow(id)).toBeUndefined();
    await detect();
    const events = await app().ctx.store.db.selectFrom('events').select('dedupe_key').where('dedupe_key', 'in', [...ids, fixed].map((i) => `deposit.detected:${i}`)).execute();
    expect(events.map((e) => e.dedupe_key)).toEqual([`deposit.detected:${fixed}`]);
  });

  it('amounts as strings and numbers with trailing zeros are read exactly', async () => {
    const a = coelsa();
    const c = coelsa();
    // To a CVU no wallet holds, so that nothing is announced to anyone.
    expect((await post(notice(a, STRANGER, '"12.30"'))).status).toBe(200);
    expect((await post(notice(c, STRANGER, '0.10000'))).status).toBe(200);
    expect(JSON.parse((await inboxRow(a))!.leg).amountCentavos).toBe(1230);
    expect(JSON.parse((await inboxRow(c))!.leg).amountCentavos).toBe(10);
  });

  it('a notice for a CVU no wallet holds announces nothing and is set aside', async () => {
    const id = coelsa();
    expect((await post(notice(id, STRANGER, '50.00'))).status).toBe(200);
    await detect();
    const row = await inboxRow(id);
    expect(row?.status).toBe('failed');
    const ev = await app().ctx.store.db.selectFrom('events').select('id').where('dedupe_key', '=', `deposit.detected:${id}`).execute();
    expect(ev).toHaveLength(0);
  });

  it('a payout between two of our wallets: one transfer, one deposit for the payee, none for the payer', async () => {
    const carla = await onboard(b, 'Carla Receptora');
    const res = await withdraw(app(), ana.agentToken, { amount_ars: 40.4, destination: carla.cvu });
    expect(res.statusCode).toBe(201);
    const id = res.json().id as string;
    await b.settled();
    await followUp();
    expect((await payout(ana, id)).status).toBe('confirmed');
    await waitFor(async () => {
      await detect();
      return (await eventTypes(app(), carla.id)).includes('deposit.detected');
    }, 'carla deposit');
    await app().jobs.bindReconciliation!.runOnce();
    await detect();
    expect((await eventTypes(app(), carla.id)).filter((t) => t === 'deposit.detected')).toHaveLength(1);
    expect((await eventTypes(app(), ana.id)).filter((t) => t === 'deposit.detected')).toHaveLength(1);
    expect(await apiBalance(carla)).toBe('40.40');
    expect(await bookedFor(id)).toHaveLength(1);
  });

  /** BIND stops answering: every token issued so far lapses and the token endpoint answers 500. */
  const bindDown = async <T>(work: () => Promise<T>): Promise<T> => {
    await b.fault('token', '500', 1000);
    await b.control('POST', '/__sim/tokens/expire');
    try {
      return await work();
    } finally {
      await b.fault('token', '500', 0);
    }
  };

  it('BIND down: a payout answers 503 RAIL_UNAVAILABLE and moves nothing', async () => {
    const w = await bindDown(() => withdraw(app(), ana.agentToken, { amount_ars: 1, destination: OUTSIDE_CBU }));
    expect(w.statusCode, w.body).toBe(503);
    expect(w.json().error).toBe('RAIL_UNAVAILABLE');
  });

  it('BIND down: balance and deposits answer 503 RAIL_UNAVAILABLE, not 500', async () => {
    for (const url of ['/v1/balance', '/v1/deposits']) {
      const res = await bindDown(() => app().inject({ method: 'GET', url, headers: bearer(ana.agentToken) }));
      expect(res.statusCode, `${url}: ${res.body}`).toBe(503);
      expect(res.json().error).toBe('RAIL_UNAVAILABLE');
      expect(res.body).not.toMatch(/BIND|HTTP 500/);
    }
  });

  it('BIND down: onboarding answers 503 RAIL_UNAVAILABLE, not 500, and a retry later onboards once', async () => {
    const u = await createUser(app(), 'Dora Demorada');
    const payload = { legal_id: randomCuit(), legal_name: 'Dora Demorada' };
    const res = await bindDown(() => app().inject({ method: 'POST', url: '/v1/onboarding', headers: bearer(u.ownerToken), payload }));
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error).toBe('RAIL_UNAVAILABLE');
    const again = await app().inject({ method: 'POST', url: '/v1/onboarding', headers: bearer(u.ownerToken), payload });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('reconciliation first, the late webhook after, a replay much later: one deposit.detected', async () => {
    const bob = await onboard(b, 'Bob Tardío');
    const id = await b.credit(bob.cvu, '77.77', 0);
    await app().jobs.bindReconciliation!.runOnce();
    await detect();
    expect((await post(notice(id, bob.cvu, '77.77'))).status).toBe(200);
    await detect();
    expect((await eventTypes(app(), bob.id)).filter((t) => t === 'deposit.detected')).toHaveLength(1);
    expect(await apiBalance(bob)).toBe('77.77');
    // (Last in this file's app: the clock jump expires every token.) Eight days on, the inbox forgot it; a replayed notice still announces nothing new.
    b.t.clock.advance(8 * 24 * 3600 * 1000);
    await app().jobs.bindReconciliation!.runOnce();
    expect(await inboxRow(id)).toBeUndefined();
    expect((await post(notice(id, bob.cvu, '77.77'))).status).toBe(200);
    await detect();
    expect((await eventTypes(app(), bob.id)).filter((t) => t === 'deposit.detected')).toHaveLength(1);
  });
});

/**
 * A gateway in front of BIND: forwards every call, but answers the transfer request with `status` after BIND
 * took it (a gateway timing out on BIND, 408/504), so the money moved whatever the answer says.
 */
describe('BIND behind a gateway that loses the transfer answer', () => {
  let b: BindTestApp;
  let gateway: Server;
  let target = '';
  let answer: number | null = null;
  let ana: Wallet;

  beforeAll(async () => {
    let url: string;
    ({ gateway, url } = await gatewayInFront(
      () => target,
      (req) => {
        if (req.method !== 'POST' || req.url !== BIND_PATHS.transfer || answer === null) return null;
        const status = answer;
        answer = null;
        return { status, body: { message: 'Request Timeout' } };
      },
    ));
    b = await startBindTestApp({ env: { BIND_API_URL: url } });
    target = b.sim.url;
    ana = await onboard(b, 'Ana Gateway');
    await b.credit(ana.cvu, '1000.00', 0);
  });
  afterAll(async () => {
    await b.close();
    await new Promise<void>((r) => gateway.close(() => r()));
  });

  // 408: a gateway that timed out waiting for BIND; 409: a conflict (the same origin_id still being worked); 425.
  it.each([408, 409, 425])('a %i from the gateway after BIND booked the transfer does not fail the payout (the money moved)', async (status) => {
    const app = b.t.app;
    const completed = async () =>
      (await b.control<{ transfers: { status: string }[] }>('GET', '/__sim/transfers')).body.transfers.filter((t) => t.status === 'COMPLETED').length;
    const before = await completed();
    answer = status;
    const res = await withdraw(app, ana.agentToken, { amount_ars: 100, destination: OUTSIDE_CBU });
    const id = (res.json().id ?? res.json().payout_id) as string;
    await b.settled();
    b.t.clock.advance(120_000);
    await app.jobs.payoutFollowUp!.runOnce();
    expect(await completed()).toBe(before + 1);
    const p = (await app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(ana.agentToken) })).json();
    // BIND paid it: the payout must say so, not "failed" (a failed payout invites the agent to pay again).
    expect(p.status).toBe('confirmed');
  });
});

describe('BIND behind a gateway that answers a status query 200 with no transfer in it', () => {
  let b: BindTestApp;
  let gateway: Server;
  let target = '';
  let envelope = true;
  let ana: Wallet;

  beforeAll(async () => {
    // BIND documents 200 and 401 for "Consultar Transferencia"; an origin_id it never got may come back as a 200
    // error envelope (`{code, message}`) from BIND or a gateway, instead of the 404 the adapter expects.
    let url: string;
    ({ gateway, url } = await gatewayInFront(
      () => target,
      (req, upstream) =>
        envelope && req.method === 'GET' && req.url?.startsWith(BIND_PATHS.transferById('')) && upstream.status === 404
          ? { status: 200, body: { code: 'NOT_FOUND', message: 'Transferencia inexistente' } }
          : null,
    ));
    b = await startBindTestApp({ env: { BIND_API_URL: url } });
    target = b.sim.url;
    ana = await onboard(b, 'Ana Envelope');
    await b.credit(ana.cvu, '1000.00', 0);
  });
  afterAll(async () => {
    await b.close();
    await new Promise<void>((r) => gateway.close(() => r()));
  });

  it('each transfer BIND answers for without showing it waits a minute of its own, and the others are still asked', async () => {
    const rail = b.t.app.ctx.rail as unknown as { getTransfers(refs: readonly string[]): Promise<Map<string, unknown>> };
    const refs = Array.from({ length: 6 }, (_, i) => `NOTSHOWN${String(i).padStart(7, '0')}`);
    const err = await rail.getTransfers(refs).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RailPartialAnswer);
    const waits = (err as RailPartialAnswer).waits;
    // Asked about one by one, four at a time: a round of such answers is no sign that BIND is down.
    expect([...waits.keys()].sort()).toEqual(refs);
    const inAMinute = b.t.clock.now().getTime() + 60_000;
    for (const at of waits.values()) expect(Date.parse(at)).toBe(inAMinute);
  });

  it('a send BIND answered 500 (nothing booked) is not taken as submitted: it stays in flight, and is paid once BIND says it has nothing', async () => {
    const app = b.t.app;
    await b.control('POST', '/__sim/faults', { op: 'transfer', mode: '500', count: 1 });
    const res = await withdraw(app, ana.agentToken, { amount_ars: 12.34, destination: OUTSIDE_CBU });
    expect(res.statusCode).toBe(201);
    const id = (res.json().id ?? res.json().payout_id) as string;
    // It read the envelope as "BIND has it, in progress": submitted with no BIND id, and never sent again.
    expect(res.json().status).toBe('approved');
    const booked = async () => {
      const row = await app.ctx.store.db.selectFrom('payouts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const transfers = (await b.control<{ transfers: { origin_id: string }[] }>('GET', '/__sim/transfers')).body.transfers;
      return { row, booked: transfers.filter((t) => t.origin_id === row.rail_reference).length };
    };
    for (let i = 0; i < 3; i++) {
      b.t.clock.advance(120_000);
      await app.jobs.payoutFollowUp!.runOnce();
    }
    // No answer is no answer: still in flight (a pause holds it, D36), nothing claimed of BIND.
    expect(await booked()).toMatchObject({ row: { status: 'approved', provider_transfer_id: null }, booked: 0 });
    envelope = false;
    b.t.clock.advance(120_000);
    await app.jobs.payoutFollowUp!.runOnce();
    await b.settled();
    const after = await booked();
    expect(after.booked).toBe(1);
    expect(after.row.provider_transfer_id).not.toBeNull();
  });
});

describe('BIND token lapsing under a burst', () => {
  let b: BindTestApp;
  let ana: Wallet;
  beforeAll(async () => {
    b = await startBindTestApp();
    ana = await onboard(b, 'Ana Ráfaga');
    await b.credit(ana.cvu, '10.00', 0);
  });
  afterAll(() => b.close());

  /** Every token the simulator issued so far (expiring them all answers how many there are). */
  const tokensIssued = async () => (await b.control<{ expired: number }>('POST', '/__sim/tokens/expire')).body.expired;

  it('a token that lapses mid-burst is renewed once, not once per call that met the 401', async () => {
    const before = await tokensIssued();
    const answers = await Promise.all(
      Array.from({ length: 48 }, () => b.t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(ana.ownerToken) })),
    );
    for (const r of answers) expect(r.statusCode, r.body).toBe(200);
    expect(answers.every((r) => r.json().available === '10.00')).toBe(true);
    // The whole burst met the lapsed token; one renewal serves it (a stampede asks BIND's token endpoint per 401).
    expect((await tokensIssued()) - before).toBe(1);
  });
});

describe("BIND: a payout between two of our wallets in the payee's deposits", () => {
  let b: BindTestApp;
  let ana: Wallet;
  let carla: Wallet;
  beforeAll(async () => {
    b = await startBindTestApp();
    ana = await onboard(b, 'Ana Pagadora');
    carla = await onboard(b, 'Carla Cobradora');
    await b.credit(ana.cvu, '1000.00', 0);
  });
  afterAll(() => b.close());

  const deposits = async (w: Wallet) =>
    (await b.t.app.inject({ method: 'GET', url: '/v1/deposits', headers: bearer(w.agentToken) })).json().deposits as { amount: string; status: string; direction: string }[];

  it('a payout that BIND failed is no completed credit to the payee; one that settled is one credit, not two', async () => {
    await b.fault('settle', 'fail');
    const failed = await withdraw(b.t.app, ana.agentToken, { amount_ars: 12.34, destination: carla.cvu });
    expect(failed.statusCode, failed.body).toBe(201);
    await b.settled();
    // The money never reached Carla: her listing must not show it as arrived.
    expect((await deposits(carla)).filter((d) => d.direction === 'credit' && d.status === 'COMPLETED')).toEqual([]);

    const paid = await withdraw(b.t.app, ana.agentToken, { amount_ars: 56.78, destination: carla.cvu });
    expect(paid.statusCode, paid.body).toBe(201);
    await b.settled();
    const credits = (await deposits(carla)).filter((d) => d.direction === 'credit' && d.status === 'COMPLETED');
    expect(credits.map((d) => d.amount)).toEqual(['56.78']);
    // The payer sees her two transfers as debits, and none of Carla's credits as her own.
    const anas = await deposits(ana);
    expect(anas.filter((d) => d.direction === 'credit').map((d) => d.amount)).toEqual(['1000.00']);
    expect(anas.filter((d) => d.direction === 'debit').map((d) => [d.amount, d.status])).toEqual([
      ['56.78', 'COMPLETED'],
      ['12.34', 'FAILED'],
    ]);
  });
});

describe('BIND turning calls away (429 with Retry-After)', () => {
  let b: BindTestApp;
  let ana: Wallet;
  beforeAll(async () => {
    b = await startBindTestApp();
    ana = await onboard(b, 'Ana Paciente');
    await b.credit(ana.cvu, '1000.00', 0);
  });
  afterAll(() => b.close());

  const calls = async () => (await b.control<Partial<Record<'transfer' | 'status', number>>>('GET', '/__sim/calls')).body;
  const status = async (id: string) => (await b.t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(ana.agentToken) })).json().status as string;
  const tick = async (ms: number) => {
    b.t.clock.advance(ms);
    await b.t.app.jobs.payoutFollowUp!.runOnce();
  };

  it('a payout BIND turned away is asked about again only after Retry-After, then paid once', async () => {
    // The simulator's 429 says Retry-After: 30.
    await b.fault('transfer', '429');
    await b.fault('status', '429', 1000);
    const res = await withdraw(b.t.app, ana.agentToken, { amount_ars: 25, destination: OUTSIDE_CBU });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const id = res.json().id as string;
    const before = await calls();
    // The follow-up runs every second; for the next 20 s BIND is not asked again.
    for (let i = 0; i < 10; i++) await tick(2_000);
    expect(await calls()).toEqual(before);
    expect(await status(id)).toBe('approved');
    // Once BIND takes calls again and the wait is over, the payout goes out, once.
    await b.fault('status', '429', 0);
    await tick(10_000);
    await waitFor(async () => {
      await tick(1_000);
      return (await status(id)) === 'confirmed';
    }, 'the payout to be confirmed');
    const ref = (await b.t.app.ctx.store.db.selectFrom('payouts').select('rail_reference').where('id', '=', id).executeTakeFirstOrThrow()).rail_reference;
    const booked = (await b.control<{ transfers: { origin_id: string }[] }>('GET', '/__sim/transfers')).body.transfers.filter((t) => t.origin_id === ref);
    expect(booked).toHaveLength(1);
  });

  it('a status query BIND turns away for one transfer: the others are confirmed, that one is asked again only after Retry-After', async () => {
    const ids: string[] = [];
    for (const amount of [5, 6]) {
      const res = await withdraw(b.t.app, ana.agentToken, { amount_ars: amount, destination: OUTSIDE_CBU });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id as string);
    }
    const [held, other] = ids as [string, string];
    const ref = (await b.t.app.ctx.store.db.selectFrom('payouts').select('rail_reference').where('id', '=', held).executeTakeFirstOrThrow()).rail_reference;
    await b.fault('status', '429', 1000, ref);
    await b.settled();
    try {
      await tick(120_000);
      expect(await status(other)).toBe('confirmed');
      expect(await status(held)).toBe('submitted');
      // The 429 said Retry-After: 30, for this transfer alone: for the next 20 s BIND is not asked about it.
      const before = await calls();
      for (let i = 0; i < 10; i++) await tick(2_000);
      expect(await calls()).toEqual(before);
    } finally {
      await b.fault('status', '429', 0);
    }
    await waitFor(async () => {
      await tick(2_000);
      return (await status(held)) === 'confirmed';
    }, 'the held payout to be confirmed');
  });

  it('while the owner’s stop is on, a payout BIND turned away is held and can be canceled; one BIND answered 500 stays in flight', async () => {
    await b.fault('transfer', '429');
    const away = await withdraw(b.t.app, ana.agentToken, { amount_ars: 10, destination: OUTSIDE_CBU });
    await b.fault('transfer', '500');
    const failed = await withdraw(b.t.app, ana.agentToken, { amount_ars: 11, destination: OUTSIDE_CBU });
    expect([away.statusCode, failed.statusCode]).toEqual([201, 201]);
    const owner = bearer(ana.ownerToken);
    expect((await b.t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: owner })).statusCode).toBe(200);
    // Past the 429's Retry-After: BIND has neither; the one it never acted on waits for resume, the other may
    // still reach the bank (a 500 says nothing), so it is asked about again and never held.
    await tick(31_000);
    await tick(31_000);
    const view = async (id: string) => (await b.t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: owner })).json();
    expect(await view(away.json().id)).toMatchObject({ status: 'approved', waiting_for_resume: true });
    expect(await view(failed.json().id)).toMatchObject({ status: 'approved', waiting_for_resume: false });
    const pause = (await b.t.app.inject({ method: 'GET', url: '/v1/payouts/pause', headers: owner })).json();
    expect(pause.in_flight.map((p: { id: string }) => p.id)).toEqual([failed.json().id]);
    expect((await b.t.app.inject({ method: 'POST', url: `/v1/withdraws/${away.json().id}/cancel`, headers: owner })).statusCode).toBe(200);
    expectError(await b.t.app.inject({ method: 'POST', url: `/v1/withdraws/${failed.json().id}/cancel`, headers: owner }), 409, 'PAYOUT_NOT_CANCELABLE');
    // Resumed, the one in flight goes out with its own reference, once; the canceled one never does.
    expect((await b.t.app.inject({ method: 'POST', url: '/v1/payouts/resume', headers: owner })).statusCode).toBe(200);
    await waitFor(async () => {
      await tick(1_000);
      return ['submitted', 'confirmed'].includes((await view(failed.json().id)).status as string);
    }, 'the payout in flight to reach BIND');
    const refs = await b.t.app.ctx.store.db.selectFrom('payouts').select(['id', 'rail_reference']).where('id', 'in', [away.json().id, failed.json().id]).execute();
    const booked = (await b.control<{ transfers: { origin_id: string }[] }>('GET', '/__sim/transfers')).body.transfers.map((t) => t.origin_id);
    for (const r of refs) expect(booked.filter((o) => o === r.rail_reference)).toHaveLength(r.id === failed.json().id ? 1 : 0);
  });
});

describe('BIND that cannot say what became of a transfer (UNKNOWN, UNKNOWN_FOREVER)', () => {
  let b: BindTestApp;
  let ana: Wallet;
  const logs: string[] = [];
  beforeAll(async () => {
    b = await startBindTestApp({ env: { LOG_LEVEL: 'info' }, deps: { logStream: new Writable({ write: (chunk, _enc, done) => void (logs.push(String(chunk)), done()) }) } });
    ana = await onboard(b, 'Ana Incierta');
    await b.credit(ana.cvu, '1000.00', 0);
  });
  afterAll(() => b.close());

  const statusCalls = async () => (await b.control<{ status?: number }>('GET', '/__sim/calls')).body.status ?? 0;
  const status = async (id: string) => (await b.t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(ana.agentToken) })).json().status as string;
  const tick = async (ms: number) => {
    b.t.clock.advance(ms);
    await b.t.app.jobs.payoutFollowUp!.runOnce();
  };
  const gaveUpLines = () => logs.filter((l) => l.includes('UNKNOWN_FOREVER')).length;

  it.each([
    ['UNKNOWN_FOREVER', 'unknown_forever', 3_600_000],
    ['UNKNOWN', 'unknown', 60_000],
  ] as const)('a transfer BIND answers %s about is asked again later, not at every pass of the follow-up', async (_state, mode, recheckMs) => {
    const res = await withdraw(b.t.app, ana.agentToken, { amount_ars: 30, destination: OUTSIDE_CBU });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    await b.settled();
    await b.fault('status', mode, 1000);
    const calls = await statusCalls();
    const lines = gaveUpLines();
    // Twenty seconds of the follow-up, which runs every second.
    for (let i = 0; i < 10; i++) await tick(2_000);
    expect((await statusCalls()) - calls).toBe(1);
    expect(gaveUpLines() - lines).toBe(mode === 'unknown_forever' ? 1 : 0);
    expect(await status(id)).toBe('submitted');
    // Asked again when the wait is over; once BIND says, the payout settles.
    await b.fault('status', mode, 0);
    await tick(recheckMs);
    expect(await status(id)).toBe('confirmed');
  });
});

/** A gateway in front of BIND that, when told, answers the balance query with a body of many megabytes. */
describe('BIND behind a gateway that answers with a huge body', () => {
  let b: BindTestApp;
  let gateway: Server;
  let target = '';
  let huge: { left: number; declared: boolean } = { left: 0, declared: false };
  let ana: Wallet;

  beforeAll(async () => {
    gateway = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      if (req.method === 'GET' && req.url === BIND_PATHS.balance && huge.left > 0) {
        huge.left -= 1;
        // Valid JSON with the balance in it, padded to 24 MB, written in 1 MB pieces.
        const piece = 'a'.repeat(1024 * 1024);
        const head = '{"moneda":"ARS","saldo":10.00,"fecha":"2026-01-01T00:00:00Z","pad":"';
        const headers: Record<string, string | number> = { 'content-type': 'application/json' };
        if (huge.declared) headers['content-length'] = head.length + 24 * piece.length + 2;
        res.writeHead(200, headers);
        res.write(head);
        for (let i = 0; i < 24 && !res.destroyed; i++) if (!res.write(piece)) await new Promise((r) => res.once('drain', r).once('close', r));
        res.end('"}');
        return;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k))) as Record<string, string>;
      const upstream = await fetch(`${target}${req.url}`, { method: req.method, headers, body: req.method === 'POST' ? Buffer.concat(chunks) : undefined });
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(await upstream.text());
    });
    await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
    b = await startBindTestApp({ env: { BIND_API_URL: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}` } });
    target = b.sim.url;
    ana = await onboard(b, 'Ana Voluminosa');
    await b.credit(ana.cvu, '10.00', 0);
  });
  afterAll(async () => {
    await b.close();
    gateway.closeAllConnections();
    await new Promise<void>((r) => gateway.close(() => r()));
  });

  const balance = () => b.t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(ana.agentToken) });

  it.each([false, true])('an answer of many megabytes is not read into memory (length declared: %s): the balance is 503, then fine', async (declared) => {
    expect((await balance()).json().available).toBe('10.00');
    huge = { left: 2, declared };
    const res = await balance();
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error).toBe('RAIL_UNAVAILABLE');
    expect((await balance()).json().available).toBe('10.00');
  });
});
