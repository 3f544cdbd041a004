import { describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, expectError, EXTERNAL_CBU, setThresholds, startNodes, startTestApp, withdraw } from './helpers.js';
import { allowedSum, balanceOf, mcpCall, mcpOutcome, newKey, payoutsOf } from './owner-control-kit.js';

/**
 * Limits hold at their edges (D5, D15, D16, D18, D27, D31, D37): payouts raced at a budget's edge over REST, MCP and
 * two nodes never pass it unapproved; bad amounts and limits are refused and change nothing; an idempotency key
 * cannot get around a lowered limit.
 * Runs on SQLite and (TEST_DATABASE_URL) PostgreSQL.
 */

describe('budgets at the edge, in parallel (D16, D31)', () => {
  it('two keys of one owner race the user daily limit: the payouts allowed without the owner never pass it', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1_000_000 });
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 0, daily_limit_ars: 10_000, monthly_limit_ars: 0, require_approval_above_ars: 0 });
      const k2 = await newKey(t.app, u);
      const res = await Promise.all(
        Array.from({ length: 40 }, (_, i) => withdraw(t.app, i % 2 ? u.agentToken : k2.token, { amount_ars: 1000, destination: EXTERNAL_CBU })),
      );
      for (const r of res) expect([201, 202], r.body).toContain(r.statusCode);
      expect(res.filter((r) => r.statusCode === 201)).toHaveLength(10);
      for (const r of res.filter((x) => x.statusCode === 202)) expect(r.json().reasons).toEqual(['daily_limit']);
      expect(allowedSum(await payoutsOf(t.app, u.id))).toBe(1_000_000);
    } finally {
      await t.close();
    }
  });

  it('a key monthly budget with payouts on REST and MCP at once: never more than the budget goes out unapproved', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1_000_000 });
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 0, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 0 });
      const k = await newKey(t.app, u, { monthly_limit_ars: 5000 });
      const calls = Array.from({ length: 30 }, (_, i) =>
        i % 2
          ? withdraw(t.app, k.token, { amount_ars: 500, destination: EXTERNAL_CBU }).then((r) => ({ status: r.statusCode, body: r.json() }))
          : mcpCall(t.app, k.key, 'request_payout', { amount_ars: 500, destination: EXTERNAL_CBU, idempotency_key: `mcp-${i}` }).then(mcpOutcome),
      );
      const out = await Promise.all(calls);
      for (const o of out) expect([201, 202], JSON.stringify(o)).toContain(o.status);
      expect(out.filter((o) => o.status === 201)).toHaveLength(10);
      for (const o of out.filter((x) => x.status === 202)) expect(o.body.reasons).toEqual(['key_monthly_limit']);
      const rows = await payoutsOf(t.app, u.id);
      expect(allowedSum(rows.filter((r) => r.api_key_id === k.id))).toBe(500_000);
    } finally {
      await t.close();
    }
  });

  it('two nodes, two keys, REST and MCP, user daily and key daily limits at once: neither is passed without the owner', async () => {
    const onPostgres = !!process.env.TEST_DATABASE_URL;
    const { nodes, close } = await startNodes(onPostgres ? 2 : 1);
    try {
      const [a, b] = [nodes[0]!, nodes[nodes.length - 1]!];
      const u = await createOnboardedUser(a, { fundArs: 1_000_000 });
      await setThresholds(a, u.ownerToken, { per_tx_limit_ars: 0, daily_limit_ars: 9000, monthly_limit_ars: 0, require_approval_above_ars: 0 });
      const k1 = await newKey(a, u, { daily_limit_ars: 4000 });
      const k2 = await newKey(a, u, { daily_limit_ars: 4000 });
      const calls = Array.from({ length: 48 }, (_, i) => {
        const node = i % 2 ? a : b;
        const k = i % 4 < 2 ? k1 : k2;
        return i % 3 === 0
          ? mcpCall(node, k.key, 'request_payout', { amount_ars: 500, destination: EXTERNAL_CBU, idempotency_key: `n-${i}` }).then(mcpOutcome)
          : withdraw(node, k.token, { amount_ars: 500, destination: EXTERNAL_CBU }).then((r) => ({ status: r.statusCode, body: r.json() as Record<string, unknown> }));
      });
      // The owner's default key pays too, with no key limit: only the user's daily limit holds it.
      const own = Array.from({ length: 8 }, (_, i) => withdraw(i % 2 ? a : b, u.agentToken, { amount_ars: 500, destination: EXTERNAL_CBU }));
      const out = await Promise.all(calls);
      const ownOut = await Promise.all(own);
      for (const o of out) expect([201, 202], JSON.stringify(o)).toContain(o.status);
      for (const r of ownOut) expect([201, 202], r.body).toContain(r.statusCode);
      const rows = await payoutsOf(a, u.id);
      expect(allowedSum(rows)).toBeLessThanOrEqual(900_000);
      expect(allowedSum(rows.filter((r) => r.api_key_id === k1.id))).toBeLessThanOrEqual(400_000);
      expect(allowedSum(rows.filter((r) => r.api_key_id === k2.id))).toBeLessThanOrEqual(400_000);
      // Held payouts count against the limits too (D16), so how many are allowed depends on the order; some are.
      expect(rows.filter((r) => r.decision === 'allow').length).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });

  it('exactly at a limit is allowed, one centavo over waits for the owner (per-tx, daily, key daily)', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 100_000 });
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 1000, daily_limit_ars: 1500.5, monthly_limit_ars: 0, require_approval_above_ars: 0 });
      const k = await newKey(t.app, u, { daily_limit_ars: 1200.25 });
      const over = await withdraw(t.app, k.token, { amount_ars: 1000.01, destination: EXTERNAL_CBU });
      expect([over.statusCode, over.json().reasons]).toEqual([202, ['per_tx_limit']]);
      // 1000.01 is held and counts; 200.24 brings the key to 1200.25 exactly.
      expect((await withdraw(t.app, k.token, { amount_ars: 200.24, destination: EXTERNAL_CBU })).statusCode).toBe(201);
      const keyOver = await withdraw(t.app, k.token, { amount_ars: 0.01, destination: EXTERNAL_CBU });
      expect([keyOver.statusCode, keyOver.json().reasons]).toEqual([202, ['key_daily_limit']]);
      // The user has 1500.50 - 1200.25 - 0.01 = 300.24 left.
      expect((await withdraw(t.app, u.agentToken, { amount_ars: 300.24, destination: EXTERNAL_CBU })).statusCode).toBe(201);
      const userOver = await withdraw(t.app, u.agentToken, { amount_ars: 0.01, destination: EXTERNAL_CBU });
      expect([userOver.statusCode, userOver.json().reasons]).toEqual([202, ['daily_limit']]);
    } finally {
      await t.close();
    }
  });
});

describe('amounts at the edges are refused clearly and change nothing (D5, D15)', () => {
  const bad: [string, unknown][] = [
    ['zero', 0],
    ['negative zero', -0],
    ['negative', -1],
    ['negative centavo', -0.01],
    ['three decimals', 0.001],
    ['three decimals, rounds up', 1.005],
    ['three decimals, large', 123456.789],
    // 2^53 + 1 has no double: it arrives as 2^53, which no centavo amount can be.
    ['above safe integer', 2 ** 53 + 1],
    ['huge', 1e21],
    ['max double', 1.7976931348623157e308],
    ['string', '100'],
    ['exponent string', '1e2'],
    ['decimal comma string', '100,50'],
    ['null', null],
    ['boolean', true],
    ['array', [100]],
    ['object', { value: 100 }],
  ];
  it('REST: each answers 400 or 422, no attempt, no usage, balance unchanged; then one centavo goes out', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      for (const [name, amount] of bad) {
        const res = await withdraw(t.app, u.agentToken, { amount_ars: amount, destination: EXTERNAL_CBU });
        expect([400, 422], `${name}: ${res.body}`).toContain(res.statusCode);
        const body = res.json();
        if (res.statusCode === 400) expect(body.error, name).toBe('INVALID_REQUEST');
        else expect([body.error, body.reasons], name).toEqual(['PAYOUT_DENIED', expect.arrayContaining(['amount_invalid'])]);
      }
      // Infinity, written as a JSON literal that overflows.
      const inf = await t.app.inject({
        method: 'POST',
        url: '/v1/withdraws',
        headers: { ...bearer(u.agentToken), 'idempotency-key': 'inf-1', 'content-type': 'application/json' },
        payload: `{"amount_ars":1e400,"destination":"${EXTERNAL_CBU}"}`,
      });
      expect([400, 422], inf.body).toContain(inf.statusCode);
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
      expect(await t.app.ctx.store.db.selectFrom('payout_usage').selectAll().where('subject', '=', `u:${u.id}`).where('amount', '!=', 0).execute()).toEqual([]);
      expect(await balanceOf(t.app, u)).toBe('1000.00');
      const cent = await withdraw(t.app, u.agentToken, { amount_ars: 0.01, destination: EXTERNAL_CBU });
      expect(cent.statusCode).toBe(201);
      expect(await balanceOf(t.app, u)).toBe('999.99');
    } finally {
      await t.close();
    }
  });

  it('the older surface (POST /v1/transfers): each is refused and nothing is created', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      for (const [i, [name, amount]] of [...bad, ['below 1 peso', 0.99] as [string, unknown], ['above the schema maximum', 1e11 + 1] as [string, unknown]].entries()) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/transfers',
          headers: { ...bearer(u.agentToken), 'idempotency-key': `tb-${i}` },
          payload: { amount, destination: EXTERNAL_CBU },
        });
        expect(res.statusCode, `${name}: ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(500);
      }
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
      expect(await balanceOf(t.app, u)).toBe('1000.00');
    } finally {
      await t.close();
    }
  });

  it('MCP request_payout: each is an error result, and nothing is created', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      for (const [i, [name, amount]] of bad.entries()) {
        const res = await mcpCall(t.app, u.apiKey, 'request_payout', { amount_ars: amount, destination: EXTERNAL_CBU, idempotency_key: `bad-${i}` });
        const out = mcpOutcome(res);
        expect(['error', 'protocol_error'], `${name}: ${res.body}`).toContain(out.status);
      }
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
      expect(await balanceOf(t.app, u)).toBe('1000.00');
    } finally {
      await t.close();
    }
  });
});

describe('limits at the edges are refused and change nothing (D15, D31)', () => {
  const badLimits: unknown[] = [-1, -0.01, 1.005, 0.001, '100', null, true, 1e300, [1]];
  it('PUT /v1/thresholds, PATCH of a key and an agent proposal: 400/INVALID_REQUEST each, nothing changed or asked', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 100, daily_limit_ars: 200, monthly_limit_ars: 300, require_approval_above_ars: 50 });
      const k = await newKey(t.app, u, { per_tx_limit_ars: 10, daily_limit_ars: 20, monthly_limit_ars: 30 });
      const thresholds = async () => (await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(u.ownerToken) })).json();
      const keyView = async () => (await t.app.inject({ method: 'GET', url: '/v1/api-keys', headers: bearer(u.ownerToken) })).json().api_keys.find((x: { id: string }) => x.id === k.id);
      const th0 = await thresholds();
      const k0 = await keyView();
      for (const field of ['per_tx_limit_ars', 'daily_limit_ars', 'monthly_limit_ars', 'require_approval_above_ars']) {
        for (const v of badLimits) {
          const put = await t.app.inject({ method: 'PUT', url: '/v1/thresholds', headers: bearer(u.ownerToken), payload: { ...th0, [field]: v } });
          expect(put.statusCode, `PUT ${field}=${JSON.stringify(v)}: ${put.body}`).toBe(400);
          const prop = mcpOutcome(await mcpCall(t.app, u.apiKey, 'propose_threshold_change', { [field]: v }));
          expect(prop.status, `propose ${field}=${JSON.stringify(v)}`).toMatch(/error/);
          if (field === 'require_approval_above_ars') continue;
          const patch = await t.app.inject({ method: 'PATCH', url: `/v1/api-keys/${k.id}`, headers: bearer(u.ownerToken), payload: { [field]: v } });
          expect(patch.statusCode, `PATCH ${field}=${JSON.stringify(v)}: ${patch.body}`).toBe(400);
        }
      }
      expect(await thresholds()).toEqual(th0);
      expect(await keyView()).toEqual(k0);
      expect((await t.app.inject({ method: 'GET', url: '/v1/approvals', headers: bearer(u.ownerToken) })).json().approvals).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('idempotency keys cannot get around a limit or the pause (D18, D27, D37)', () => {
  it('after the owner lowers a limit, the same key with a larger amount is refused and a replay pays nothing new', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 1000, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 0 });
      expect((await withdraw(t.app, u.agentToken, { amount_ars: 900, destination: EXTERNAL_CBU }, 'same')).statusCode).toBe(201);
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 100, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 0 });
      expectError(await withdraw(t.app, u.agentToken, { amount_ars: 901, destination: EXTERNAL_CBU }, 'same'), 422, 'IDEMPOTENCY_KEY_REUSED');
      const mcpReuse = mcpOutcome(await mcpCall(t.app, u.apiKey, 'request_payout', { amount_ars: 900.01, destination: EXTERNAL_CBU, idempotency_key: 'same' }));
      expect(mcpReuse.body.error).toBe('IDEMPOTENCY_KEY_REUSED');
      await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(u.ownerToken) });
      const replay = await withdraw(t.app, u.agentToken, { amount_ars: 900, destination: EXTERNAL_CBU }, 'same');
      expect([replay.statusCode, replay.headers['idempotent-replayed']]).toEqual([201, 'true']);
      const fresh = await withdraw(t.app, u.agentToken, { amount_ars: 90, destination: EXTERNAL_CBU }, 'fresh');
      expect(fresh.json().reasons).toEqual(['payouts_paused']);
      expect(await payoutsOf(t.app, u.id)).toHaveLength(1);
      expect(await balanceOf(t.app, u)).toBe('9100.00');
    } finally {
      await t.close();
    }
  });

  it('one idempotency key raced from REST and MCP with different amounts: one payout at most', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      const out = await Promise.all([
        ...Array.from({ length: 5 }, (_, i) => withdraw(t.app, u.agentToken, { amount_ars: 100 + i, destination: EXTERNAL_CBU }, 'contested').then((r) => ({ status: r.statusCode, body: r.json() }))),
        ...Array.from({ length: 5 }, (_, i) => mcpCall(t.app, u.apiKey, 'request_payout', { amount_ars: 200 + i, destination: EXTERNAL_CBU, idempotency_key: 'contested' }).then(mcpOutcome)),
      ]);
      expect(out.filter((o) => o.status === 201)).toHaveLength(1);
      const rows = await payoutsOf(t.app, u.id);
      expect(rows).toHaveLength(1);
      expect(Number(await balanceOf(t.app, u))).toBe(10_000 - Number(rows[0]!.amount) / 100);
    } finally {
      await t.close();
    }
  });
});
