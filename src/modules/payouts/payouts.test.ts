import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createOnboardedUser,
  createUser,
  eventTypes,
  expectError,
  EXTERNAL_CBU,
  settle,
  startTestApp,
  withdraw,
  type OnboardedUser,
  type TestApp,
} from '../../../test/helpers.js';

describe('POST /v1/withdraws and the payout lifecycle', () => {
  let t: TestApp;
  let a: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp();
    a = await createOnboardedUser(t.app, { name: 'Ana Pérez', fundArs: 100_000 });
  });
  afterAll(() => t.close());

  const getPayout = (id: string, token = a.ownerToken) =>
    t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(token) });

  it('allow → 201 submitted → confirmed, with its events and every record field', async () => {
    const res = await withdraw(t.app, a.agentToken, { amount_ars: 1234.56, destination: EXTERNAL_CBU, note: 'alquiler' }, 'allow-1');
    expect(res.statusCode).toBe(201);
    const { id } = res.json();
    expect(res.json()).toEqual({ id, status: 'submitted', decision: 'allow' });
    expect(id).toMatch(/^wd_/);

    const rec = (await getPayout(id)).json();
    expect(rec).toMatchObject({
      id,
      amount_ars: 1234.56,
      destination: EXTERNAL_CBU,
      destination_kind: 'CBU',
      status: 'submitted',
      decision: 'allow',
      decision_reasons: [],
      idempotency_key: 'allow-1',
      resolved_at: null,
      api_key_id: a.apiKeyId,
      api_key_name: 'default',
      note: 'alquiler',
      recipient_name: 'Titular cuenta 5201',
    });
    expect(rec.provider_transfer_id).toMatch(/^trf_/);
    expect((await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(a.ownerToken) })).json().available).toBe('98765.44');

    await settle(t);
    const done = (await getPayout(id)).json();
    expect(done.status).toBe('confirmed');
    expect(done.resolved_at).toBeTruthy();
    expect(await eventTypes(t.app, a.id, id)).toEqual(['payout.requested', 'payout.submitted', 'payout.confirmed']);
  });

  it('a payout from the owner session records no key', async () => {
    const res = await withdraw(t.app, a.ownerToken, { amount_ars: 10, destination: EXTERNAL_CBU });
    const rec = (await getPayout(res.json().id)).json();
    expect(rec).toMatchObject({ api_key_id: null, api_key_name: null });
  });

  it('require_approval → 202 with reasons, approval id and expires_in', async () => {
    const res = await withdraw(t.app, a.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU });
    expect(res.statusCode).toBe(202);
    const body = res.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^wd_/),
      status: 'pending_approval',
      decision: 'require_approval',
      reasons: ['above_approval_threshold'],
      approval_id: expect.stringMatching(/^apr_/),
      expires_in: 300,
    });
    expect((await getPayout(body.id)).json()).toMatchObject({ status: 'pending_approval', approval_id: body.approval_id, provider_transfer_id: null });
    expect(await eventTypes(t.app, a.id, body.id)).toEqual(['payout.requested']);
  });

  it('deny → 422 PAYOUT_DENIED with reasons, no attempt, an audit row naming the key', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/v1/withdraws', headers: bearer(a.ownerToken) })).json().withdraws.length;
    const res = await withdraw(t.app, a.agentToken, { amount_ars: 10.001, destination: 'sandbox.nope!', destination_kind: 'ALIAS' });
    expectError(res, 422, 'PAYOUT_DENIED');
    expect(res.json().reasons).toEqual(['amount_invalid', 'destination_invalid']);
    const cap = await withdraw(t.app, a.agentToken, { amount_ars: 5_000_000.01, destination: EXTERNAL_CBU });
    expect(cap.json().reasons).toContain('absolute_cap');
    const unknownAlias = await withdraw(t.app, a.agentToken, { amount_ars: 5, destination: 'no.such.alias', destination_kind: 'ALIAS' });
    expect(unknownAlias.json().reasons).toEqual(['destination_invalid']);
    const after = (await t.app.inject({ method: 'GET', url: '/v1/withdraws', headers: bearer(a.ownerToken) })).json().withdraws.length;
    expect(after).toBe(before);
    const audit = await t.app.ctx.store.db.selectFrom('audit_log').selectAll().where('user_id', '=', a.id).where('action', '=', 'payout.denied').execute();
    expect(audit.length).toBeGreaterThanOrEqual(3);
    expect(audit[0]).toMatchObject({ api_key_id: a.apiKeyId, api_key_name: 'default' });
  });

  it('a denial\'s message says in words what denies it, apart from what would only wait for approval', async () => {
    const cap = await withdraw(t.app, a.agentToken, { amount_ars: 6_000_000, destination: EXTERNAL_CBU }, 'deny-words-cap');
    expect(cap.json().message).toBe(
      "Payout denied: absolute_cap (over the service's maximum for one payout). Were it not denied, it would also wait for the owner's approval: " +
        'per_tx_limit, daily_limit, monthly_limit, above_approval_threshold',
    );
    const own = await withdraw(t.app, a.agentToken, { amount_ars: 5, destination: a.cvu }, 'deny-words-own');
    expect(own.json().message).toBe(
      "Payout denied: destination_invalid (not a valid CBU, CVU or alias, no account answers to it, or it is this wallet's own account)",
    );
  });

  it('a payout to the payer\'s own wallet, by CVU or alias, is denied destination_invalid and creates nothing; its key stays free', async () => {
    const p = await createOnboardedUser(t.app, { fundArs: 100 });
    for (const [destination, kind] of [[p.cvu, 'CVU'], [p.alias, 'ALIAS'], [p.alias.toUpperCase(), undefined]] as const) {
      const res = await withdraw(t.app, p.agentToken, { amount_ars: 5, destination, ...(kind ? { destination_kind: kind } : {}) }, `self-${destination}`);
      expectError(res, 422, 'PAYOUT_DENIED');
      expect(res.json().reasons).toEqual(['destination_invalid']);
    }
    expect((await t.app.inject({ method: 'GET', url: '/v1/withdraws', headers: bearer(p.ownerToken) })).json().withdraws).toEqual([]);
    // The key created nothing, so it is free for a payout that can happen.
    const ok = await withdraw(t.app, p.agentToken, { amount_ars: 5, destination: EXTERNAL_CBU }, `self-${p.cvu}`);
    expect(ok.statusCode).toBe(201);
  });

  it('KYC not verified → denied with kyc_incomplete', async () => {
    const p = await createOnboardedUser(t.app, { fundArs: 100 });
    await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(p.ownerToken), payload: { status: 'pending' } });
    const res = await withdraw(t.app, p.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU });
    expectError(res, 422, 'PAYOUT_DENIED');
    expect(res.json().reasons).toEqual(['kyc_incomplete']);
  });

  it('rail rejection on the allowed path → 502 WITHDRAW_FAILED and a failed attempt; insufficient balance too', async () => {
    const res = await withdraw(t.app, a.agentToken, { amount_ars: 10, destination: 'sandbox.reject', destination_kind: 'ALIAS' }, 'rej-1');
    expectError(res, 502, 'WITHDRAW_FAILED');
    const failed = (await getPayout(res.json().payout_id)).json();
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'destination_rejected' });
    expect(failed.resolved_at).toBeTruthy();
    expect(await eventTypes(t.app, a.id, failed.id)).toEqual(['payout.requested', 'payout.failed']);
    // D37: the attempt binds its key: the same request replays the 502 verbatim and creates nothing.
    const again = await withdraw(t.app, a.agentToken, { amount_ars: 10, destination: 'sandbox.reject', destination_kind: 'ALIAS' }, 'rej-1');
    expect(again.statusCode).toBe(502);
    expect(again.body).toBe(res.body);
    expect(again.headers['idempotent-replayed']).toBe('true');

    const poor = await createOnboardedUser(t.app, { fundArs: 5 });
    expectError(await withdraw(t.app, poor.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }), 502, 'WITHDRAW_FAILED');
  });

  it('insufficient balance → top up → retry with the same key: the failure replays, one attempt exists, nothing is paid (D37)', async () => {
    const u = await createOnboardedUser(t.app, { fundArs: 5 });
    const body = { amount_ars: 10, destination: EXTERNAL_CBU };
    const first = await withdraw(t.app, u.agentToken, body, 'topup-1');
    expectError(first, 502, 'WITHDRAW_FAILED');
    expect(first.json().reason).toBe('insufficient_funds');
    await t.app.inject({ method: 'POST', url: '/v1/sandbox/deposits', headers: bearer(u.ownerToken), payload: { amount_ars: 100 } });
    const retry = await withdraw(t.app, u.agentToken, body, 'topup-1');
    expect([retry.statusCode, retry.body]).toEqual([502, first.body]);
    // MCP and the older surface share the key namespace and answer the same failure.
    const mcp = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...bearer(u.apiKey), accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'request_payout', arguments: { ...body, destination_kind: 'CBU', idempotency_key: 'topup-1' } } },
    });
    expect(mcp.body).toContain('WITHDRAW_FAILED');
    expect(mcp.body).toContain('"isError":true');
    const transfer = await t.app.inject({ method: 'POST', url: '/v1/transfers', headers: { ...bearer(u.agentToken), 'idempotency-key': 'topup-1' }, payload: { amount: 10, destination: EXTERNAL_CBU } });
    expectError(transfer, 402, 'insufficient_balance');
    const rows = await t.app.ctx.store.db.selectFrom('payouts').select(['id', 'status']).where('user_id', '=', u.id).execute();
    expect(rows).toEqual([{ id: first.json().payout_id, status: 'failed' }]);
    expect((await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json().available).toBe('105.00');
    // A new key is a new payout, and now it is covered.
    expect((await withdraw(t.app, u.agentToken, body, 'topup-2')).statusCode).toBe(201);
  });

  it('sandbox.fail: accepted, then failed before confirmation, the money back', async () => {
    const u = await createOnboardedUser(t.app, { fundArs: 100 });
    const res = await withdraw(t.app, u.agentToken, { amount_ars: 40, destination: 'sandbox.fail', destination_kind: 'ALIAS' });
    expect(res.statusCode).toBe(201);
    await settle(t);
    const rec = (await getPayout(res.json().id, u.ownerToken)).json();
    expect(rec).toMatchObject({ status: 'failed', failure_reason: 'destination_account_closed' });
    expect(await eventTypes(t.app, u.id, rec.id)).toEqual(['payout.requested', 'payout.submitted', 'payout.failed']);
    expect((await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json().available).toBe('100.00');
  });

  it('sandbox.timeout: reconciled by reference, never sent twice', async () => {
    const u = await createOnboardedUser(t.app, { fundArs: 100 });
    const res = await withdraw(t.app, u.agentToken, { amount_ars: 30, destination: 'sandbox.timeout', destination_kind: 'ALIAS' });
    expect(res.statusCode).toBe(201);
    expect(res.json().status).toBe('submitted');
    await settle(t);
    await settle(t);
    const rec = (await getPayout(res.json().id, u.ownerToken)).json();
    expect(rec.status).toBe('confirmed');
    const p = await t.app.ctx.store.db.selectFrom('payouts').select('rail_reference').where('id', '=', rec.id).executeTakeFirstOrThrow();
    const transfers = await t.app.ctx.store.db.selectFrom('rail_transfers').select('id').where('reference', '=', p.rail_reference).execute();
    expect(transfers).toHaveLength(1);
    expect((await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json().available).toBe('70.00');
  });

  it('a payout to another sandbox user is their deposit', async () => {
    const b = await createOnboardedUser(t.app, { name: 'Beto' });
    const res = await withdraw(t.app, a.agentToken, { amount_ars: 250, destination: b.alias.toUpperCase(), destination_kind: 'ALIAS' });
    expect(res.statusCode).toBe(201);
    expect((await getPayout(res.json().id)).json()).toMatchObject({ recipient_name: 'Beto', recipient_legal_id: b.legalId });
    expect((await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(b.ownerToken) })).json().available).toBe('250.00');
  });

  it('documented request errors: missing or long key, bad JSON, bad body, no onboarding', async () => {
    expectError(await withdraw(t.app, a.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU }, null), 400, 'MISSING_IDEMPOTENCY_KEY');
    expectError(await withdraw(t.app, a.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU }, 'x'.repeat(256)), 400, 'INVALID_REQUEST');
    const badJson = await t.app.inject({
      method: 'POST',
      url: '/v1/withdraws',
      headers: { ...bearer(a.agentToken), 'idempotency-key': 'bj', 'content-type': 'application/json' },
      payload: '{"amount_ars": 1,',
    });
    expectError(badJson, 400, 'INVALID_JSON');
    expectError(await withdraw(t.app, a.agentToken, { amount_ars: '1', destination: EXTERNAL_CBU }), 400, 'INVALID_REQUEST');
    expectError(await withdraw(t.app, a.agentToken, { amount_ars: 1 }), 400, 'INVALID_REQUEST');
    expectError(await withdraw(t.app, a.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU, destination_kind: 'IBAN' }), 400, 'INVALID_REQUEST');
    const fresh = await createUser(t.app);
    expectError(await withdraw(t.app, fresh.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU }), 422, 'ONBOARDING_INCOMPLETE');
    // The claim its decision took is given back with it.
    const claims = await t.app.ctx.store.db.selectFrom('idempotency_keys').select('key_hash').where('user_id', '=', fresh.id).execute();
    expect(claims).toEqual([]);
    // A bad request does not burn the key.
    const ok = await withdraw(t.app, a.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU }, 'bj');
    expect(ok.statusCode).toBe(201);
  });

  it('GET /v1/withdraws: newest first, paged, only the caller’s; another user’s id is 404', async () => {
    const u = await createOnboardedUser(t.app, { fundArs: 100 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await withdraw(t.app, u.agentToken, { amount_ars: 1 + i, destination: EXTERNAL_CBU })).json().id);
    const all = (await t.app.inject({ method: 'GET', url: '/v1/withdraws', headers: bearer(u.ownerToken) })).json();
    expect(all.withdraws.map((w: { id: string }) => w.id)).toEqual([...ids].reverse());
    const page1 = (await t.app.inject({ method: 'GET', url: '/v1/withdraws?limit=2', headers: bearer(u.ownerToken) })).json();
    expect(page1.withdraws).toHaveLength(2);
    const page2 = (
      await t.app.inject({ method: 'GET', url: `/v1/withdraws?limit=2&cursor=${page1.next_cursor}`, headers: bearer(u.ownerToken) })
    ).json();
    expect(page2.withdraws.map((w: { id: string }) => w.id)).toEqual([ids[0]]);
    expect(page2.next_cursor).toBeNull();
    expectError(await t.app.inject({ method: 'GET', url: '/v1/withdraws?limit=101', headers: bearer(u.ownerToken) }), 400, 'INVALID_REQUEST');
    expectError(await getPayout(ids[0]!, a.ownerToken), 404, 'NOT_FOUND');
  });

  it('security: no token, and the token of a deleted key', async () => {
    expectError(await t.app.inject({ method: 'POST', url: '/v1/withdraws', payload: {} }), 401, 'UNAUTHENTICATED');
    expectError(await t.app.inject({ method: 'GET', url: '/v1/withdraws' }), 401, 'UNAUTHENTICATED');
    expectError(await t.app.inject({ method: 'GET', url: '/v1/withdraws/wd_x' }), 401, 'UNAUTHENTICATED');
    const k = (await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(a.ownerToken), payload: { name: 'gone' } })).json();
    const tok = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: k.key } })).json().token;
    await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${k.id}`, headers: bearer(a.ownerToken) });
    expectError(await withdraw(t.app, tok, { amount_ars: 1, destination: EXTERNAL_CBU }), 401, 'INVALID_TOKEN');
  });
});

describe('no approval channel (D23)', () => {
  it('a payout that needs approval answers 503 APPROVAL_NOT_CONFIGURED and creates nothing', async () => {
    const t = await startTestApp({ env: { APPROVAL_CHANNELS: '' } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 100_000 });
      const res = await withdraw(t.app, u.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU }, 'nochan');
      expectError(res, 503, 'APPROVAL_NOT_CONFIGURED');
      expect(res.json().reasons).toEqual(['above_approval_threshold']);
      expect((await t.app.inject({ method: 'GET', url: '/v1/withdraws', headers: bearer(u.ownerToken) })).json().withdraws).toEqual([]);
      // An allowed payout still goes through.
      expect((await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, 'nochan')).statusCode).toBe(201);
    } finally {
      await t.close();
    }
  });
});
