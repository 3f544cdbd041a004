import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createOnboardedUser,
  createUser,
  expectError,
  EXTERNAL_CBU,
  setThresholds,
  startTestApp,
  withdraw,
  type OnboardedUser,
  type TestApp,
} from '../../../test/helpers.js';
import { withCheckDigits } from '../../shared/ar-identifiers.js';
import { APPROVAL_REASONS, DENY_REASONS } from '../policy/policy.js';

/** Another bank's account (Banco Galicia, 007), valid check digits: whitelists and allowlists that miss. */
const OTHER_CBU = withCheckDigits('0070999', '0000000012345');

const simulate = (app: FastifyInstance, token: string, body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/v1/withdraws/simulate', headers: bearer(token), payload: body });

type ToolAnswer = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text: string }[] };
async function tool(app: FastifyInstance, key: string, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const res = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...bearer(key), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as ToolAnswer;
}
/** A tool's answer as `{decision, reasons}` or `{error, reasons}`: what a simulation and a payout are compared on. */
function outcome(r: ToolAnswer): Record<string, unknown> {
  if (r.isError) {
    const body = JSON.parse(r.content[0]!.text) as { error: string; reasons?: string[] };
    return body.error === 'PAYOUT_DENIED' ? { decision: 'deny', reasons: body.reasons } : { error: body.error, reasons: body.reasons };
  }
  const s = r.structuredContent!;
  return { decision: s.decision, reasons: s.reasons ?? [] };
}

const TABLES = [
  'payouts',
  'payout_usage',
  'audit_log',
  'events',
  'idempotency_keys',
  'webhook_deliveries',
  'approvals',
  'rail_transfers',
  'rail_legs',
  'wallet_transactions',
  'payout_pauses',
  'thresholds',
] as const;

/**
 * Every row of every table a payout writes to. Audit rows of MCP calls (`mcp.<tool>`: who called what) are left
 * out: they record the call, not a payout.
 */
async function snapshot(app: FastifyInstance): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of TABLES) {
    const rows = (await app.ctx.store.db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
    out[table] = rows
      .filter((r) => table !== 'audit_log' || !String(r.action).startsWith('mcp.'))
      .map((r) => JSON.stringify(r))
      .sort();
  }
  return out;
}

interface Agent {
  user: OnboardedUser;
  /** The REST token and raw key of the key that asks. */
  token: string;
  key: string;
}

async function newKey(t: TestApp, u: OnboardedUser, controls: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(u.ownerToken), payload: { name: 'agent', ...controls } });
  expect(res.statusCode, res.body).toBe(201);
  const key = res.json() as { id: string; key: string };
  const token = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: key.key } })).json().token as string;
  return { ...key, token };
}

describe('POST /v1/withdraws/simulate and simulate_payout', () => {
  let t: TestApp;
  let a: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp();
    a = await createOnboardedUser(t.app, { name: 'Ana Pérez', fundArs: 100_000 });
  });
  afterAll(() => t.close());

  /** A fresh funded user whose agent key has `controls`, after `setup`. */
  async function agent(controls: Record<string, unknown> = {}, setup?: (u: OnboardedUser) => Promise<void>): Promise<Agent> {
    const user = await createOnboardedUser(t.app, { name: 'Caso', fundArs: 100_000 });
    await setup?.(user);
    const k = await newKey(t, user, controls);
    return { user, token: k.token, key: k.key };
  }
  const thresholds = (body: Record<string, unknown>) => async (u: OnboardedUser) =>
    setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 0, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 0, whitelist_cbus: [], ...body });
  const paid = (amount: number) => async (u: OnboardedUser) => {
    expect((await withdraw(t.app, u.agentToken, { amount_ars: amount, destination: EXTERNAL_CBU })).statusCode).toBe(201);
  };

  it('allowed: the decision, every limit left and the holder, and nothing is written', async () => {
    const before = await snapshot(t.app);
    const res = await simulate(t.app, a.agentToken, { amount_ars: 1500.5, destination: EXTERNAL_CBU, note: 'alquiler' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      decision: 'allow',
      reasons: [],
      limits: {
        per_tx: { limit: 100000, used: 0, remaining: 100000 },
        daily: { limit: 500000, used: 0, remaining: 500000 },
        monthly: { limit: 2000000, used: 0, remaining: 2000000 },
        key_per_tx: { limit: 0, used: 0, remaining: null },
        key_daily: { limit: 0, used: 0, remaining: null },
        key_monthly: { limit: 0, used: 0, remaining: null },
      },
      destination: { kind: 'CBU', account: EXTERNAL_CBU, holder_name: 'Titular cuenta 5201', bank_name: 'Banco Macro S.A.' },
    });
    expect(await snapshot(t.app)).toEqual(before);
  });

  it('limits show what is used today and this month; an alias is resolved; the owner session has no key limits', async () => {
    const b = await createOnboardedUser(t.app, { name: 'Beto Gómez' });
    expect((await withdraw(t.app, a.agentToken, { amount_ars: 1000, destination: EXTERNAL_CBU })).statusCode).toBe(201);
    const res = await simulate(t.app, a.ownerToken, { amount_ars: 10, destination: b.alias });
    expect(res.json()).toMatchObject({
      decision: 'allow',
      limits: { daily: { limit: 500000, used: 1000, remaining: 499000 }, monthly: { used: 1000 }, key_per_tx: null, key_daily: null, key_monthly: null },
      // No kind sent: not 22 digits, so an alias.
      destination: { kind: 'ALIAS', account: b.cvu, holder_name: 'Beto Gómez' },
    });
  });

  it('documented errors, each changing nothing', async () => {
    const before = await snapshot(t.app);
    // Body errors as a payout has them; an idempotency key is not part of the body.
    for (const body of [{ amount_ars: '10', destination: EXTERNAL_CBU }, { destination: EXTERNAL_CBU }, { amount_ars: 10, destination: EXTERNAL_CBU, idempotency_key: 'x' }]) {
      expectError(await simulate(t.app, a.agentToken, body), 400, 'INVALID_REQUEST');
    }
    const bad = await t.app.inject({ method: 'POST', url: '/v1/withdraws/simulate', headers: { ...bearer(a.agentToken), 'content-type': 'application/json' }, payload: '{' });
    expectError(bad, 400, 'INVALID_JSON');
    const fresh = await createUser(t.app);
    expectError(await simulate(t.app, fresh.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }), 422, 'ONBOARDING_INCOMPLETE');
    expect(await snapshot(t.app)).toEqual(before);
  });

  it('security: no token, a garbage token, a key without payouts:read, a deleted key', async () => {
    const body = { amount_ars: 10, destination: EXTERNAL_CBU };
    expectError(await t.app.inject({ method: 'POST', url: '/v1/withdraws/simulate', payload: body }), 401, 'UNAUTHENTICATED');
    expectError(await simulate(t.app, 'not-a-token', body), 401, 'INVALID_TOKEN');
    expectError(await simulate(t.app, a.apiKey, body), 401, 'INVALID_TOKEN');
    const writer = await newKey(t, a, { scopes: ['payouts:write'] });
    expectError(await simulate(t.app, writer.token, body), 403, 'INSUFFICIENT_SCOPE');
    expect(outcome(await tool(t.app, writer.key, 'simulate_payout', body))).toEqual({ error: 'INSUFFICIENT_SCOPE', reasons: undefined });
    const reader = await newKey(t, a, { scopes: ['payouts:read'] });
    expect((await simulate(t.app, reader.token, body)).statusCode).toBe(200);
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${reader.id}`, headers: bearer(a.ownerToken) });
    expect(del.statusCode).toBeLessThan(300);
    expectError(await simulate(t.app, reader.token, body), 401, 'INVALID_TOKEN');
    const mcp = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...bearer(reader.key), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'simulate_payout', arguments: body } },
    });
    expect(mcp.statusCode).toBe(401);
  });

  it("another user's state never shows: the limits and usage are the caller's own", async () => {
    const other = await createOnboardedUser(t.app, { fundArs: 100_000 });
    await setThresholds(t.app, other.ownerToken, { per_tx_limit_ars: 5, daily_limit_ars: 5, monthly_limit_ars: 5, require_approval_above_ars: 0, whitelist_cbus: [] });
    await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(other.ownerToken) });
    const mine = await simulate(t.app, a.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU });
    expect(mine.json()).toMatchObject({ decision: 'allow', limits: { per_tx: { limit: 100000 } } });
  });

  /**
   * Each case: simulate (REST and MCP) with nothing written, then the real payout (MCP request_payout), which must
   * answer the same decision and reasons, or the same error.
   */
  const cases: { name: string; make: () => Promise<Agent>; body: Record<string, unknown>; expect: Record<string, unknown> }[] = [
    { name: 'allow', make: () => agent(), body: { amount_ars: 100, destination: EXTERNAL_CBU }, expect: { decision: 'allow', reasons: [] } },
    { name: 'amount_invalid', make: () => agent(), body: { amount_ars: 1.234, destination: EXTERNAL_CBU }, expect: { decision: 'deny', reasons: ['amount_invalid'] } },
    {
      name: 'destination_invalid (unknown alias)',
      make: () => agent(),
      body: { amount_ars: 10, destination: 'nadie.tiene.esto' },
      expect: { decision: 'deny', reasons: ['destination_invalid'] },
    },
    {
      name: 'destination_invalid (bad check digit)',
      make: () => agent(),
      body: { amount_ars: 10, destination: `${EXTERNAL_CBU.slice(0, 21)}0`, destination_kind: 'CBU' },
      expect: { decision: 'deny', reasons: ['destination_invalid'] },
    },
    {
      name: 'kyc_incomplete',
      make: () => agent({}, async (u) => void (await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(u.ownerToken), payload: { status: 'pending' } }))),
      body: { amount_ars: 10, destination: EXTERNAL_CBU },
      expect: { decision: 'deny', reasons: ['kyc_incomplete'] },
    },
    {
      name: 'absolute_cap',
      make: () => agent({}, thresholds({})),
      body: { amount_ars: 5_000_000.01, destination: EXTERNAL_CBU },
      expect: { decision: 'deny', reasons: ['absolute_cap'] },
    },
    {
      name: 'key_allowlist_violation',
      make: () => agent({ allowlist: [OTHER_CBU] }),
      body: { amount_ars: 10, destination: EXTERNAL_CBU },
      expect: { decision: 'deny', reasons: ['key_allowlist_violation'] },
    },
    {
      name: 'payouts_paused',
      make: () => agent({}, async (u) => void (await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(u.ownerToken) }))),
      body: { amount_ars: 10, destination: EXTERNAL_CBU },
      expect: { decision: 'deny', reasons: ['payouts_paused'] },
    },
    { name: 'per_tx_limit', make: () => agent({}, thresholds({ per_tx_limit_ars: 100 })), body: { amount_ars: 100.01, destination: EXTERNAL_CBU }, expect: { decision: 'require_approval', reasons: ['per_tx_limit'] } },
    {
      name: 'daily_limit (counts what was paid today)',
      make: () => agent({}, async (u) => (await thresholds({ daily_limit_ars: 1000 })(u), await paid(800)(u))),
      body: { amount_ars: 200.01, destination: EXTERNAL_CBU },
      expect: { decision: 'require_approval', reasons: ['daily_limit'] },
    },
    {
      name: 'monthly_limit',
      make: () => agent({}, async (u) => (await thresholds({ monthly_limit_ars: 1000 })(u), await paid(800)(u))),
      body: { amount_ars: 300, destination: EXTERNAL_CBU },
      expect: { decision: 'require_approval', reasons: ['monthly_limit'] },
    },
    {
      name: 'above_approval_threshold',
      make: () => agent(),
      body: { amount_ars: 60_000, destination: EXTERNAL_CBU },
      expect: { decision: 'require_approval', reasons: ['above_approval_threshold'] },
    },
    {
      name: 'destination_not_whitelisted',
      make: () => agent({}, thresholds({ whitelist_cbus: [OTHER_CBU] })),
      body: { amount_ars: 10, destination: EXTERNAL_CBU },
      expect: { decision: 'require_approval', reasons: ['destination_not_whitelisted'] },
    },
    {
      name: 'whitelisted by the account an alias resolves to',
      make: async () => {
        const b = await createOnboardedUser(t.app, { name: 'Beto' });
        const ag = await agent({}, thresholds({ whitelist_cbus: [b.cvu], require_approval_above_ars: 1 }));
        return { ...ag, alias: b.alias } as Agent & { alias: string };
      },
      body: { amount_ars: 10, destination: '@alias' },
      expect: { decision: 'allow', reasons: [] },
    },
    { name: 'key_per_tx_limit', make: () => agent({ per_tx_limit_ars: 50 }), body: { amount_ars: 60, destination: EXTERNAL_CBU }, expect: { decision: 'require_approval', reasons: ['key_per_tx_limit'] } },
    {
      name: 'key_daily_limit (counts what this key paid today)',
      make: async () => {
        const ag = await agent({ daily_limit_ars: 100 });
        expect((await withdraw(t.app, ag.token, { amount_ars: 80, destination: EXTERNAL_CBU })).statusCode).toBe(201);
        return ag;
      },
      body: { amount_ars: 30, destination: EXTERNAL_CBU },
      expect: { decision: 'require_approval', reasons: ['key_daily_limit'] },
    },
    { name: 'key_monthly_limit', make: () => agent({ monthly_limit_ars: 20 }), body: { amount_ars: 30, destination: EXTERNAL_CBU }, expect: { decision: 'require_approval', reasons: ['key_monthly_limit'] } },
    {
      name: 'several reasons at once',
      make: () => agent({ per_tx_limit_ars: 50 }, thresholds({ per_tx_limit_ars: 50, require_approval_above_ars: 40 })),
      body: { amount_ars: 60, destination: EXTERNAL_CBU },
      expect: { decision: 'require_approval', reasons: ['per_tx_limit', 'key_per_tx_limit', 'above_approval_threshold'] },
    },
  ];

  it('the case table covers every policy reason', () => {
    const covered = new Set(cases.flatMap((c) => c.expect.reasons as string[]));
    expect([...DENY_REASONS, ...APPROVAL_REASONS].filter((r) => !covered.has(r))).toEqual([]);
  });

  it.each(cases)('$name: simulate_payout and POST /v1/withdraws/simulate agree with request_payout, and write nothing', async (c) => {
    const ag = await c.make();
    const alias = (ag as Agent & { alias?: string }).alias;
    const body = { ...c.body, ...(c.body.destination === '@alias' ? { destination: alias } : {}) };

    const before = await snapshot(t.app);
    const rest = await simulate(t.app, ag.token, body);
    expect(rest.statusCode, rest.body).toBe(200);
    const viaMcp = await tool(t.app, ag.key, 'simulate_payout', body);
    expect(viaMcp.isError, viaMcp.content[0]?.text).toBeFalsy();
    expect(viaMcp.structuredContent).toEqual(rest.json());
    expect(outcome(viaMcp)).toEqual(c.expect);
    expect(await snapshot(t.app)).toEqual(before);

    const real = await tool(t.app, ag.key, 'request_payout', { ...body, idempotency_key: `real-${c.name}` });
    expect(outcome(real)).toEqual(c.expect);
  });

  it('approval needed with no approval channel, or no wallet: simulate answers the error the payout answers', async () => {
    const t2 = await startTestApp({ env: { APPROVAL_CHANNELS: '' } });
    try {
      const u = await createOnboardedUser(t2.app, { fundArs: 100_000 });
      const fresh = await createUser(t2.app);
      for (const [who, body, code] of [
        [u, { amount_ars: 60_000, destination: EXTERNAL_CBU }, 'APPROVAL_NOT_CONFIGURED'],
        [fresh, { amount_ars: 10, destination: EXTERNAL_CBU }, 'ONBOARDING_INCOMPLETE'],
      ] as const) {
        const before = await snapshot(t2.app);
        const sim = await tool(t2.app, who.apiKey, 'simulate_payout', body);
        expect(await snapshot(t2.app)).toEqual(before);
        const real = await tool(t2.app, who.apiKey, 'request_payout', { ...body, idempotency_key: `nochan-${code}` });
        expect(outcome(sim)).toEqual(outcome(real));
        expect(outcome(sim)).toMatchObject({ error: code });
      }
    } finally {
      await t2.close();
    }
  });

  it('the snapshot sees what a payout writes: the same request for real moves every count', async () => {
    await t.app.inject({
      method: 'PUT',
      url: '/v1/webhook',
      headers: bearer(a.ownerToken),
      payload: { url: 'http://127.0.0.1:9/hook', secret: 'a-secret-of-16-chars!' },
    });
    const body = { amount_ars: 60_000, destination: EXTERNAL_CBU };
    const before = await snapshot(t.app);
    expect((await simulate(t.app, a.agentToken, body)).json().decision).toBe('require_approval');
    expect((await tool(t.app, a.apiKey, 'simulate_payout', body)).structuredContent?.decision).toBe('require_approval');
    expect(await snapshot(t.app)).toEqual(before);
    expect((await withdraw(t.app, a.agentToken, body)).statusCode).toBe(202);
    const after = await snapshot(t.app);
    for (const table of ['payouts', 'payout_usage', 'audit_log', 'events', 'idempotency_keys', 'webhook_deliveries', 'approvals'] as const) {
      expect(after[table], table).not.toEqual(before[table]);
    }
  });

  it('counts against the agent rate limit like any agent call', async () => {
    const t3 = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const u = await createOnboardedUser(t3.app);
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) codes.push((await simulate(t3.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU })).statusCode);
      expect(codes).toEqual([200, 200, 200, 429]);
    } finally {
      await t3.close();
    }
  });
});
