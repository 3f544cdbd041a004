import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createOnboardedUser,
  expectError,
  EXTERNAL_CBU,
  startNodes,
  startTestApp,
  type OnboardedUser,
  type TestApp,
} from '../../../test/helpers.js';

const transfer = (app: FastifyInstance, token: string, body: Record<string, unknown>, key: string | null = `t-${Math.random()}`) =>
  app.inject({
    method: 'POST',
    url: '/v1/transfers',
    headers: { ...bearer(token), ...(key === null ? {} : { 'idempotency-key': key }) },
    payload: body,
  });

/** Waits until the user has a pending approval, and returns its id. */
async function pendingApproval(app: FastifyInstance, ownerToken: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const list = (await app.inject({ method: 'GET', url: '/v1/approvals?status=pending', headers: bearer(ownerToken) })).json().approvals;
    if (list.length > 0) return list[0].id as string;
    await sleep(50);
  }
  throw new Error('no pending approval appeared');
}

describe('POST /v1/transfers, the older surface (D32)', () => {
  let t: TestApp;
  let u: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '0' } });
    u = await createOnboardedUser(t.app, { fundArs: 200_000 });
  });
  afterAll(() => t.close());

  it('completed path: answers once the bank completed it; GET has the same shape; a retry replays', async () => {
    const res = await transfer(t.app, u.agentToken, { amount: 1500.5, destination: EXTERNAL_CBU, description: 'Factura 12' }, 'tr-1');
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ status: 'completed', amount: 1500.5, destination: EXTERNAL_CBU, description: 'Factura 12' });
    expect(body.id).toMatch(/^wd_/);
    expect(body.completed_at).toEqual(expect.any(String));
    expect(body.approved_at).toBeUndefined();
    const got = await t.app.inject({ method: 'GET', url: `/v1/transfers/${body.id}`, headers: bearer(u.agentToken) });
    expect(got.json()).toEqual(body);
    const again = await transfer(t.app, u.agentToken, { amount: 1500.5, destination: EXTERNAL_CBU, description: 'Factura 12' }, 'tr-1');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(body);
    // One namespace with withdraws: the transfer is a payout attempt.
    expect((await t.app.inject({ method: 'GET', url: `/v1/withdraws/${body.id}`, headers: bearer(u.agentToken) })).json().status).toBe('confirmed');
  });

  it('insufficient balance → 402 insufficient_balance; a bad destination → 422 invalid_destination', async () => {
    const poor = await createOnboardedUser(t.app, { fundArs: 10 });
    const first = await transfer(t.app, poor.agentToken, { amount: 20, destination: EXTERNAL_CBU }, 'tr-poor');
    expectError(first, 402, 'insufficient_balance');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // D37: a retry with the key replays the 402 as it was, marked as a replay like any other (D18).
    const retry = await transfer(t.app, poor.agentToken, { amount: 20, destination: EXTERNAL_CBU }, 'tr-poor');
    expect([retry.statusCode, retry.body, retry.headers['idempotent-replayed']]).toEqual([402, first.body, 'true']);
    expectError(await transfer(t.app, u.agentToken, { amount: 5, destination: '2850590940090418135202' }), 422, 'invalid_destination');
    expectError(await transfer(t.app, u.agentToken, { amount: 5, destination: 'no.such.alias' }), 422, 'invalid_destination');
    // Kind is inferred: a CVU (000…) and an alias work.
    expect((await transfer(t.app, u.agentToken, { amount: 5, destination: poor.cvu })).json().status).toBe('completed');
    expect((await transfer(t.app, u.agentToken, { amount: 5, destination: poor.alias })).json().status).toBe('completed');
  });

  it('a key allowlist → 422 allowlist_violation; no transfer:write → 403; bad input → 400', async () => {
    const mk = async (payload: Record<string, unknown>) => {
      const key = (await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(u.ownerToken), payload: { name: 'k', ...payload } })).json();
      return (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: key.key } })).json().token as string;
    };
    expectError(await transfer(t.app, await mk({ allowlist: ['0170099220000067797370'] }), { amount: 5, destination: EXTERNAL_CBU }), 422, 'allowlist_violation');
    const readOnly = await mk({ scopes: ['transactions:read'] });
    expectError(await transfer(t.app, readOnly, { amount: 5, destination: EXTERNAL_CBU }), 403, 'INSUFFICIENT_SCOPE');
    expectError(await transfer(t.app, u.agentToken, { amount: 5, destination: EXTERNAL_CBU }, null), 400, 'MISSING_IDEMPOTENCY_KEY');
    for (const bad of [{ amount: 0.5, destination: EXTERNAL_CBU }, { amount: 1.001, destination: EXTERNAL_CBU }, { amount: 5, destination: EXTERNAL_CBU, description: 'x'.repeat(141) }]) {
      expectError(await transfer(t.app, u.agentToken, bad), 400, 'INVALID_REQUEST');
    }
  });

  it('at the approval threshold the request is held; approve → 201 approved with approved_at and completed_at', async () => {
    const pending = transfer(t.app, u.agentToken, { amount: 50_000, destination: EXTERNAL_CBU });
    const approval = await pendingApproval(t.app, u.ownerToken);
    expect((await t.app.inject({ method: 'POST', url: `/v1/approvals/${approval}/approve`, headers: bearer(u.ownerToken) })).statusCode).toBe(200);
    const res = await pending;
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'approved', amount: 50_000, approved_at: expect.any(String), completed_at: expect.any(String) });
  });

  it('reject → 402 rejected; no decision in 5 minutes → 408 expired', async () => {
    const rejected = transfer(t.app, u.agentToken, { amount: 60_000, destination: EXTERNAL_CBU }, 'tr-rejected');
    const a1 = await pendingApproval(t.app, u.ownerToken);
    await t.app.inject({ method: 'POST', url: `/v1/approvals/${a1}/reject`, headers: bearer(u.ownerToken) });
    expectError(await rejected, 402, 'rejected');
    const retried = await transfer(t.app, u.agentToken, { amount: 60_000, destination: EXTERNAL_CBU }, 'tr-rejected');
    expect([retried.statusCode, retried.body, retried.headers['idempotent-replayed']]).toEqual([402, (await rejected).body, 'true']);

    const expiring = transfer(t.app, u.agentToken, { amount: 60_000, destination: EXTERNAL_CBU });
    await pendingApproval(t.app, u.ownerToken);
    t.clock.advance(5 * 60 * 1000 + 1000);
    const res = await expiring;
    expectError(res, 408, 'expired');
    const got = (await t.app.inject({ method: 'GET', url: `/v1/transfers/${res.json().id}`, headers: bearer(u.agentToken) })).json();
    expect(got.status).toBe('expired');
  });
});

describe('transfers held across nodes and disconnects (D32)', () => {
  it('a client that disconnects mid-hold loses nothing; the owner decides on another node', async () => {
    const { nodes, close } = await startNodes(process.env.TEST_DATABASE_URL ? 2 : 1, { env: { SANDBOX_CONFIRM_DELAY_MS: '0' } });
    const [a] = nodes as [FastifyInstance];
    const b = nodes[nodes.length - 1]!;
    try {
      await a.listen({ port: 0, host: '127.0.0.1' });
      const address = a.server.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const u = await createOnboardedUser(a, { fundArs: 200_000 });
      const body = { amount: 70_000, destination: EXTERNAL_CBU };

      // Held, decided on the other node: the held request answers.
      const held = transfer(a, u.agentToken, body, 'hold-1');
      const a1 = await pendingApproval(b, u.ownerToken);
      await b.inject({ method: 'POST', url: `/v1/approvals/${a1}/approve`, headers: bearer(u.ownerToken) });
      expect((await held).json()).toMatchObject({ status: 'approved', completed_at: expect.any(String) });

      // The client goes away mid-hold: the approval still pays, and GET tells.
      const gone = new AbortController();
      const request = fetch(`${base}/v1/transfers`, {
        method: 'POST',
        headers: { ...bearer(u.agentToken), 'idempotency-key': 'hold-2', 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: gone.signal,
      }).catch((e: Error) => e);
      const a2 = await pendingApproval(b, u.ownerToken);
      gone.abort();
      expect(await request).toBeInstanceOf(Error);
      await b.inject({ method: 'POST', url: `/v1/approvals/${a2}/approve`, headers: bearer(u.ownerToken) });
      const approval = (await b.inject({ method: 'GET', url: `/v1/approvals/${a2}`, headers: bearer(u.ownerToken) })).json();
      const got = (await a.inject({ method: 'GET', url: `/v1/transfers/${approval.payout.id}`, headers: bearer(u.agentToken) })).json();
      expect(got).toMatchObject({ status: 'approved', completed_at: expect.any(String) });
      // A retry with the same key replays the outcome.
      const retry = await transfer(a, u.agentToken, body, 'hold-2');
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json().id).toBe(got.id);
    } finally {
      await close();
    }
  });
});

describe('a transfer that replays a withdraw held longer than the transfer hold (D32, D18)', () => {
  it('ends the hold after 5 minutes with the attempt as it stands, without spinning on an approval not yet due', async () => {
    const t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '0', APPROVAL_TTL_SECONDS: '900' } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 200_000 });
      const w = await t.app.inject({
        method: 'POST',
        url: '/v1/withdraws',
        headers: { ...bearer(u.agentToken), 'idempotency-key': 'both-surfaces' },
        payload: { amount_ars: 60_000, destination: EXTERNAL_CBU },
      });
      expect(w.json()).toMatchObject({ status: 'pending_approval', expires_in: 900 });
      // The same key on the older surface is the same attempt (one namespace), whose approval lasts 15 minutes.
      t.clock.advance(6 * 60 * 1000 + 1000);
      const db = t.app.ctx.store.db;
      // It used to ask about the approval again and again without pause, and never answer.
      const res = await Promise.race([
        transfer(t.app, u.agentToken, { amount: 60_000, destination: EXTERNAL_CBU }, 'both-surfaces'),
        sleep(5000).then(() => null),
      ]);
      expect(res).not.toBeNull();
      expect(res!.statusCode).toBe(201);
      expect(res!.headers['idempotent-replayed']).toBe('true');
      expect(res!.json()).toMatchObject({ id: w.json().id, status: 'pending_approval' });
      // The owner's window is not cut short by the older surface: the approval is still pending.
      const approval = (await db.selectFrom('approvals').select('status').where('id', '=', w.json().approval_id).executeTakeFirstOrThrow()).status;
      expect(approval).toBe('pending');
    } finally {
      await t.close();
    }
  }, 30_000);
});
