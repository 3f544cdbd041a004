import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import type { BankRail } from '../src/modules/rail/rail.port.js';
import {
  bearer,
  createOnboardedUser,
  expectError,
  EXTERNAL_CBU,
  setThresholds,
  startNodes,
  startTestApp,
  withdraw,
  type OnboardedUser,
  type TestApp,
} from './helpers.js';
import { startFakeTelegram } from './fake-telegram.js';
import { agentsOf, connectApp, ORIGIN } from './oauth-flow.js';

/**
 * An adversarial reviewer's pass over the promise to owners (D16, D31, D36, D44): an agent never spends more than
 * allowed, and the owner can always stop it. Runs on SQLite and (TEST_DATABASE_URL) PostgreSQL.
 */

const OTHER_CBU = '0170099220000067797370';

/** A rail whose `resolve` (the first thing a payout does, before any lock) can be held, to stretch a request. */
function gatedResolve() {
  let gate: Promise<void> | null = null;
  let release: () => void = () => {};
  let waiting = 0;
  const wrap = (rail: BankRail): BankRail =>
    Object.assign(Object.create(rail) as BankRail, {
      resolve: async (...a: Parameters<BankRail['resolve']>) => {
        if (gate) {
          waiting++;
          await gate;
        }
        return rail.resolve(...a);
      },
    });
  return {
    wrap,
    hold() {
      gate = new Promise<void>((r) => (release = r));
      waiting = 0;
    },
    release() {
      gate = null;
      release();
    },
    get waiting() {
      return waiting;
    },
  };
}

async function newKey(app: FastifyInstance, u: OnboardedUser, body: Record<string, unknown> = {}) {
  const res = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(u.ownerToken), payload: { name: 'agent', ...body } });
  expect(res.statusCode, res.body).toBe(201);
  const key = res.json() as { id: string; key: string };
  const token = (await app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: key.key } })).json().token as string;
  return { id: key.id, key: key.key, token };
}

const mcpCall = (app: FastifyInstance, credential: string, name: string, args: Record<string, unknown>) =>
  app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...bearer(credential), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
  });

/** A tool call's outcome as REST would say it: 201/202 with the body, or the error code and reasons. */
interface ToolCallBody {
  result?: { isError?: boolean; content: { text: string }[]; structuredContent: Record<string, unknown> };
  error?: unknown;
}
function mcpOutcome(res: { statusCode: number; json(): unknown }): { status: 201 | 202 | 'error' | 'protocol_error'; body: Record<string, unknown> } {
  expect(res.statusCode).toBe(200);
  const { result, error } = res.json() as ToolCallBody;
  if (!result) return { status: 'protocol_error', body: { error } };
  if (result.isError) return { status: 'error', body: JSON.parse(result.content[0]!.text) as Record<string, unknown> };
  const s = result.structuredContent;
  return { status: s.status === 'pending_approval' ? 202 : 201, body: s };
}

const payoutsOf = (app: FastifyInstance, userId: string) =>
  app.ctx.store.db.selectFrom('payouts').select(['id', 'amount', 'status', 'api_key_id', 'decision']).where('user_id', '=', userId).execute();

const balanceOf = async (app: FastifyInstance, u: OnboardedUser) =>
  (await app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json().available as string;

const allowedSum = (rows: { amount: number | string; decision: string }[]) => rows.filter((r) => r.decision === 'allow').reduce((s, r) => s + Number(r.amount), 0);

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

describe('revoking an agent while its payout is on its way (D12, D31, D44)', () => {
  it('a key deleted while its payout request is in flight: once the delete has answered, that request pays nothing', async () => {
    const g = gatedResolve();
    const t = await startTestApp({ deps: { rail: g.wrap } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      const k = await newKey(t.app, u);
      g.hold();
      const pending = withdraw(t.app, k.token, { amount_ars: 100, destination: EXTERNAL_CBU }, 'in-flight-1');
      await vi.waitFor(() => expect(g.waiting).toBe(1));
      const del = await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${k.id}`, headers: bearer(u.ownerToken) });
      expect(del.statusCode).toBe(204);
      g.release();
      const res = await pending;
      expect(res.statusCode, res.body).toBe(401);
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
      expect(await balanceOf(t.app, u)).toBe('10000.00');
    } finally {
      g.release();
      await t.close();
    }
  });

  it('the same on the older surface (POST /v1/transfers)', async () => {
    const g = gatedResolve();
    const t = await startTestApp({ deps: { rail: g.wrap } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      const k = await newKey(t.app, u);
      g.hold();
      const pending = t.app.inject({
        method: 'POST',
        url: '/v1/transfers',
        headers: { ...bearer(k.token), 'idempotency-key': 'tr-in-flight' },
        payload: { amount: 100, destination: EXTERNAL_CBU },
      });
      await vi.waitFor(() => expect(g.waiting).toBe(1));
      expect((await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${k.id}`, headers: bearer(u.ownerToken) })).statusCode).toBe(204);
      g.release();
      const res = await pending;
      expect(res.statusCode, res.body).toBe(401);
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
    } finally {
      g.release();
      await t.close();
    }
  });

  it('the same through MCP with the raw key', async () => {
    const g = gatedResolve();
    const t = await startTestApp({ deps: { rail: g.wrap } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      const k = await newKey(t.app, u);
      g.hold();
      const pending = mcpCall(t.app, k.key, 'request_payout', { amount_ars: 100, destination: EXTERNAL_CBU, idempotency_key: 'mcp-in-flight' });
      await vi.waitFor(() => expect(g.waiting).toBe(1));
      expect((await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${k.id}`, headers: bearer(u.ownerToken) })).statusCode).toBe(204);
      g.release();
      const out = mcpOutcome(await pending);
      expect(out.status, JSON.stringify(out)).toBe('error');
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
    } finally {
      g.release();
      await t.close();
    }
  });

  it('a payout in flight when the owner narrows the key allowlist: once the change has answered, it is not paid elsewhere', async () => {
    const g = gatedResolve();
    const t = await startTestApp({ deps: { rail: g.wrap } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      const k = await newKey(t.app, u);
      g.hold();
      const pending = withdraw(t.app, k.token, { amount_ars: 100, destination: EXTERNAL_CBU });
      await vi.waitFor(() => expect(g.waiting).toBe(1));
      const patch = await t.app.inject({ method: 'PATCH', url: `/v1/api-keys/${k.id}`, headers: bearer(u.ownerToken), payload: { allowlist: [OTHER_CBU] } });
      expect(patch.statusCode).toBe(200);
      g.release();
      const res = await pending;
      expectError(res, 422, 'PAYOUT_DENIED');
      expect(res.json().reasons).toEqual(['key_allowlist_violation']);
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
    } finally {
      g.release();
      await t.close();
    }
  });
});

describe('an agent that ends while its payout is on its way (D31, D44)', () => {
  it('a payout in flight when the owner takes payouts:write away from the key: once the change has answered, it pays nothing', async () => {
    const g = gatedResolve();
    const t = await startTestApp({ deps: { rail: g.wrap } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      const k = await newKey(t.app, u, { scopes: ['payouts:write', 'payouts:read'] });
      g.hold();
      const pending = withdraw(t.app, k.token, { amount_ars: 100, destination: EXTERNAL_CBU });
      await vi.waitFor(() => expect(g.waiting).toBe(1));
      const patch = await t.app.inject({ method: 'PATCH', url: `/v1/api-keys/${k.id}`, headers: bearer(u.ownerToken), payload: { scopes: ['payouts:read'] } });
      expect(patch.statusCode).toBe(200);
      g.release();
      expectError(await pending, 403, 'INSUFFICIENT_SCOPE');
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
    } finally {
      g.release();
      await t.close();
    }
  });

  it('a key that expires while its payout request is in flight pays nothing', async () => {
    const g = gatedResolve();
    const t = await startTestApp({ deps: { rail: g.wrap } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      const k = await newKey(t.app, u, { expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString() });
      g.hold();
      const pending = withdraw(t.app, k.token, { amount_ars: 100, destination: EXTERNAL_CBU });
      await vi.waitFor(() => expect(g.waiting).toBe(1));
      t.clock.advance(61_000);
      g.release();
      const res = await pending;
      expect(res.statusCode, res.body).toBe(401);
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
    } finally {
      g.release();
      await t.close();
    }
  });

  it('an app connected by OAuth, revoked while its request_payout is in flight, pays nothing', async () => {
    const g = gatedResolve();
    const t = await startTestApp({ deps: { rail: g.wrap }, env: { PUBLIC_URL: ORIGIN } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      const connected = await connectApp(t.app, u, { scopes: ['payouts:write', 'payouts:read'] });
      g.hold();
      const pending = mcpCall(t.app, connected.access_token, 'request_payout', { amount_ars: 100, destination: EXTERNAL_CBU, idempotency_key: 'oauth-1' });
      await vi.waitFor(() => expect(g.waiting).toBe(1));
      const agent = (await agentsOf(t.app, u)).find((a) => a.kind === 'oauth')!;
      expect((await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${agent.id}`, headers: bearer(u.ownerToken) })).statusCode).toBe(204);
      g.release();
      const out = mcpOutcome(await pending);
      expect(out.status, JSON.stringify(out)).toBe('error');
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
    } finally {
      g.release();
      await t.close();
    }
  });
});

/**
 * PostgreSQL: a payout's decision read the key and thresholds under the per-user lock, and commits a few statements
 * later. An owner's change that answered in between, without waiting for that lock, would answer before a payout
 * decided on what it replaced. Another connection holds the user's usage row, so the payout stops right after its
 * decision (at its usage upsert); the owner's change is asked then.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('an owner change answers only after a payout decided before it (PostgreSQL)', () => {
  async function holdUsageRow(t: TestApp, userId: string) {
    const c = new pg.Client({ connectionString: t.config.databaseUrl });
    await c.connect();
    await c.query('begin');
    const held = await c.query('select 1 from payout_usage where subject = $1 for update', [`u:${userId}`]);
    expect(held.rowCount).toBeGreaterThan(0);
    // pg_stat_activity is a snapshot held for the rest of a transaction once read: clear it before each look.
    const waiting = async () =>
      (await c.query('select pg_stat_clear_snapshot()')) &&
      (
        await c.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%payout_usage%'",
        )
      ).rows[0]!.n > 0;
    return {
      waitForPayoutBlocked: async () => {
        for (let i = 0; i < 200 && !(await waiting()); i++) await new Promise((r) => setTimeout(r, 50));
        expect(await waiting(), 'the payout waits for the held usage row').toBe(true);
      },
      release: async () => {
        await c.query('commit').catch(() => {});
        await c.end();
      },
    };
  }

  const answeredWithin = async <T>(p: Promise<T>, ms: number) => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

  for (const change of ['delete the key', 'narrow the key allowlist', 'lower the per-tx limit'] as const) {
    it(`${change}: if it answered while the payout was being decided, that payout is not sent on what it replaced`, async () => {
      const t = await startTestApp();
      let hold: Awaited<ReturnType<typeof holdUsageRow>> | null = null;
      try {
        const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
        await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 0, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 0 });
        const k = await newKey(t.app, u);
        expect((await withdraw(t.app, k.token, { amount_ars: 1, destination: EXTERNAL_CBU })).statusCode).toBe(201); // the usage row exists
        hold = await holdUsageRow(t, u.id);
        const pending = withdraw(t.app, k.token, { amount_ars: 100, destination: EXTERNAL_CBU });
        await hold.waitForPayoutBlocked();
        const owner =
          change === 'delete the key'
            ? t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${k.id}`, headers: bearer(u.ownerToken) })
            : change === 'narrow the key allowlist'
              ? t.app.inject({ method: 'PATCH', url: `/v1/api-keys/${k.id}`, headers: bearer(u.ownerToken), payload: { allowlist: [OTHER_CBU] } })
              : t.app.inject({ method: 'PUT', url: '/v1/thresholds', headers: bearer(u.ownerToken), payload: { per_tx_limit_ars: 50 } });
        const ownerAnsweredFirst = await answeredWithin(owner, 1000);
        await hold.release();
        hold = null;
        const res = await pending;
        expect((await owner).statusCode).toBeLessThan(300);
        // The payout was decided before the change: fine, as long as the change did not answer first.
        if (res.statusCode === 201) expect(ownerAnsweredFirst, 'the owner was told the change was made while a payout on the old terms was still to commit').toBe(false);
      } finally {
        await hold?.release();
        await t.close();
      }
    });
  }
});

describe('the pause and the thresholds racing a payout in flight (D16, D36)', () => {
  it('a payout in flight when the pause answers is denied payouts_paused; after resume a new one goes', async () => {
    const g = gatedResolve();
    const t = await startTestApp({ deps: { rail: g.wrap } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      g.hold();
      const pending = withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU }, 'p-1');
      const viaMcp = mcpCall(t.app, u.apiKey, 'request_payout', { amount_ars: 100, destination: EXTERNAL_CBU, idempotency_key: 'p-2' });
      await vi.waitFor(() => expect(g.waiting).toBe(2));
      const pause = await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(u.ownerToken) });
      expect(pause.json()).toMatchObject({ paused: true, in_flight: [] });
      g.release();
      const res = await pending;
      expectError(res, 422, 'PAYOUT_DENIED');
      expect(res.json().reasons).toEqual(['payouts_paused']);
      expect(mcpOutcome(await viaMcp).body).toMatchObject({ error: 'PAYOUT_DENIED', reasons: ['payouts_paused'] });
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
      // The keys were left free (D37): after resume the same keys pay once.
      await t.app.inject({ method: 'POST', url: '/v1/payouts/resume', headers: bearer(u.ownerToken) });
      expect((await withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU }, 'p-1')).statusCode).toBe(201);
      expect((await payoutsOf(t.app, u.id)).length).toBe(1);
    } finally {
      g.release();
      await t.close();
    }
  });

  it('an approval in flight (at its destination re-check) when the pause answers is refused 409 and the payout stays held', async () => {
    const g = gatedResolve();
    const t = await startTestApp({ deps: { rail: g.wrap } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 100_000 });
      const held = await withdraw(t.app, u.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU });
      expect(held.statusCode).toBe(202);
      g.hold();
      const approving = t.app.inject({ method: 'POST', url: `/v1/approvals/${held.json().approval_id as string}/approve`, headers: bearer(u.ownerToken) });
      await vi.waitFor(() => expect(g.waiting).toBe(1));
      const pause = await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(u.ownerToken) });
      expect(pause.json()).toMatchObject({ paused: true, in_flight: [] });
      g.release();
      expectError(await approving, 409, 'PAYOUTS_PAUSED');
      const rec = (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${held.json().id as string}`, headers: bearer(u.ownerToken) })).json();
      expect(rec.status).toBe('pending_approval');
      expect(await balanceOf(t.app, u)).toBe('100000.00');
    } finally {
      g.release();
      await t.close();
    }
  });

  it('the owner lowers the per-tx limit while a payout is in flight: once the change has answered, the payout waits for the owner', async () => {
    const g = gatedResolve();
    const t = await startTestApp({ deps: { rail: g.wrap } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 0, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 0 });
      g.hold();
      const pending = withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU });
      await vi.waitFor(() => expect(g.waiting).toBe(1));
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 50, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 0 });
      g.release();
      const res = await pending;
      expect([res.statusCode, res.json().reasons]).toEqual([202, ['per_tx_limit']]);
    } finally {
      g.release();
      await t.close();
    }
  });

  it('an agent proposal approved after the owner changed other limits changes only what it proposed', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 1000, daily_limit_ars: 5000, monthly_limit_ars: 20_000, require_approval_above_ars: 500 });
      const prop = mcpOutcome(await mcpCall(t.app, u.apiKey, 'propose_threshold_change', { daily_limit_ars: 8000 }));
      expect(prop.status, JSON.stringify(prop)).toBe(201);
      const approvalId = prop.body.approval_id as string;
      // The agent cannot approve its own proposal.
      expectError(await t.app.inject({ method: 'POST', url: `/v1/approvals/${approvalId}/approve`, headers: bearer(u.agentToken) }), 403, 'OWNER_SESSION_REQUIRED');
      // Meanwhile the owner tightens the per-tx limit.
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 10, daily_limit_ars: 5000, monthly_limit_ars: 20_000, require_approval_above_ars: 500 });
      expect((await t.app.inject({ method: 'POST', url: `/v1/approvals/${approvalId}/approve`, headers: bearer(u.ownerToken) })).statusCode).toBe(200);
      const th = (await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(u.ownerToken) })).json();
      expect(th).toMatchObject({ per_tx_limit_ars: 10, daily_limit_ars: 8000, monthly_limit_ars: 20_000, require_approval_above_ars: 500 });
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


describe('an agent proposal approves only what the owner was shown (D13)', () => {
  it('a field proposed at its current value is not shown, so approving never writes it back over a later owner change', async () => {
    const TOKEN = '123456:TEST-token';
    const SECRET = 'tg-webhook-secret-0123456789';
    const CHAT = 777002;
    const tg = await startFakeTelegram(TOKEN);
    const t = await startTestApp({ env: { APPROVAL_CHANNELS: 'telegram', TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_WEBHOOK_SECRET: SECRET, TELEGRAM_API_ROOT: tg.apiRoot } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      const post = (update: object) =>
        t.app.inject({ method: 'POST', url: '/v1/channels/telegram/webhook', headers: { 'x-telegram-bot-api-secret-token': SECRET }, payload: update });
      const { code } = (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/telegram', headers: bearer(u.ownerToken) })).json();
      await post({ update_id: 1, message: { message_id: 1, chat: { id: CHAT, type: 'private' }, from: { id: CHAT, username: 'ana' }, text: `/start ${code}` } });
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 100_000, daily_limit_ars: 500_000, monthly_limit_ars: 2_000_000, require_approval_above_ars: 50_000 });

      // The agent asks for a larger per-tx limit, and "proposes" the daily limit as it is.
      const prop = mcpOutcome(await mcpCall(t.app, u.apiKey, 'propose_threshold_change', { per_tx_limit_ars: 150_000, daily_limit_ars: 500_000 }));
      expect(prop.status, JSON.stringify(prop)).toBe(201);
      const text = String(tg.of('sendMessage').at(-1)!.body.text);
      expect(text).toContain('Límite por pago');
      expect(text).not.toContain('Límite diario'); // nothing to show: it would not change

      // Later the owner tightens the daily limit, then approves the message about the per-tx limit.
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 100_000, daily_limit_ars: 1000, monthly_limit_ars: 2_000_000, require_approval_above_ars: 50_000 });
      await post({ update_id: 2, callback_query: { id: 'cb2', data: `a:${prop.body.approval_id as string}`, from: { id: CHAT }, message: { message_id: 1, chat: { id: CHAT } } } });
      const th = (await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(u.ownerToken) })).json();
      expect(th.per_tx_limit_ars).toBe(150_000);
      expect(th.daily_limit_ars, 'the daily limit the owner set after the proposal, which the approval never showed').toBe(1000);
    } finally {
      await t.close();
      await tg.close();
    }
  });
});
