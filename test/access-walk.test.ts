import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../src/modules/keys/key-controls.js';
import { fetchDocument, operationsOf, type OpenApiDoc } from './openapi-contract.js';
import { bearer, createOnboardedUser, startTestApp, type OnboardedUser, type TestApp } from './helpers.js';

/**
 * Agents reach only what their scopes name (D38). This test walks every operation of the OpenAPI document and
 * every MCP tool with agent keys holding no scope and each single scope, and holds what they reach against the
 * table below. A route or tool missing from the table fails the test by name: add it to the table with the
 * access it must have.
 */

type Expected = Scope | 'owner' | 'public' | 'own-credential';

/** `METHOD /path` as the OpenAPI document spells it → who may call it. Extend when a route is added. */
const ROUTES: Record<string, Expected> = {
  'GET /healthz': 'public',
  'GET /readyz': 'public',
  'POST /v1/users': 'public',
  'POST /v1/login': 'public',
  'POST /v1/auth/token': 'public',
  // The raw key is its credential; its tools are walked below.
  'POST /mcp': 'own-credential',

  'POST /v1/api-keys': 'owner',
  'GET /v1/api-keys': 'owner',
  'PATCH /v1/api-keys/{id}': 'owner',
  'DELETE /v1/api-keys/{id}': 'owner',
  'POST /v1/onboarding': 'owner',
  'POST /v1/sandbox/deposits': 'owner',
  'POST /v1/sandbox/crypto': 'owner',
  'POST /v1/sandbox/kyc': 'owner',
  'PUT /v1/thresholds': 'owner',
  'POST /v1/withdraws/{id}/cancel': 'owner',
  'POST /v1/payouts/pause': 'owner',
  'POST /v1/payouts/resume': 'owner',
  'POST /v1/approvals/{id}/approve': 'owner',
  'POST /v1/approvals/{id}/reject': 'owner',
  'GET /v1/webhook': 'owner',
  'PUT /v1/webhook': 'owner',
  'DELETE /v1/webhook': 'owner',
  'GET /v1/webhook/deliveries': 'owner',
  'POST /v1/webhook/deliveries/{id}/redeliver': 'owner',
  'POST /v1/webhook/test': 'owner',
  'GET /v1/approval-channels': 'owner',
  'POST /v1/approval-channels/telegram': 'owner',
  'DELETE /v1/approval-channels/telegram': 'owner',
  'POST /v1/approval-channels/whatsapp': 'owner',
  'DELETE /v1/approval-channels/whatsapp': 'owner',
  'GET /v1/events/stream': 'owner',
  'GET /v1/activity': 'owner',
  'GET /v1/oauth/interactions/{uid}': 'owner',
  'POST /v1/oauth/interactions/{uid}/approve': 'owner',
  'POST /v1/oauth/interactions/{uid}/deny': 'owner',

  'GET /v1/balance': 'wallet:read',
  'GET /v1/cvu': 'wallet:read',
  'GET /v1/deposits': 'wallet:read',
  'GET /v1/thresholds': 'thresholds:read',
  'POST /v1/withdraws': 'payouts:write',
  'POST /v1/withdraws/simulate': 'payouts:read',
  'POST /v1/destinations/resolve': 'payouts:read',
  'GET /v1/withdraws': 'payouts:read',
  'GET /v1/withdraws/{id}': 'payouts:read',
  'GET /v1/withdraws/{id}/receipt': 'payouts:read',
  'GET /v1/payouts/pause': 'payouts:read',
  'GET /v1/approvals': 'payouts:read',
  'GET /v1/approvals/{id}': 'payouts:read',
  'POST /v1/transfers': 'transfer:write',
  'GET /v1/transfers/{id}': 'transactions:read',
  'GET /v1/transactions': 'transactions:read',
};

/** MCP tool → the scope it needs. Extend when a tool is added. */
const TOOLS: Record<string, Scope> = {
  request_payout: 'payouts:write',
  get_payout: 'payouts:read',
  simulate_payout: 'payouts:read',
  resolve_destination: 'payouts:read',
  list_payouts: 'payouts:read',
  get_receipt: 'payouts:read',
  get_balance: 'wallet:read',
  get_cvu: 'wallet:read',
  list_recent_deposits: 'wallet:read',
  get_thresholds: 'thresholds:read',
  propose_threshold_change: 'thresholds:propose',
  list_transactions: 'transactions:read',
};

const REFUSAL: Record<string, string> = { owner: 'OWNER_SESSION_REQUIRED' };
const ACCEPT = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

describe('agents reach only what their scopes name (D38)', () => {
  let t: TestApp;
  let doc: OpenApiDoc;
  let u: OnboardedUser;
  /** Keys by the scope they hold ('none' = `scopes: []`): the raw key and its REST token. */
  const keys: Record<string, { key: string; token: string }> = {};
  const holders = ['none', ...SCOPES] as const;

  beforeAll(async () => {
    t = await startTestApp();
    doc = await fetchDocument(t.app);
    u = await createOnboardedUser(t.app, { fundArs: 1000 });
    for (const holder of holders) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/api-keys',
        headers: bearer(u.ownerToken),
        payload: { name: `walk ${holder}`, scopes: holder === 'none' ? [] : [holder] },
      });
      expect(created.statusCode, created.body).toBe(201);
      const key = created.json<{ key: string }>().key;
      const exchanged = await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: key } });
      // A key with no scope can still exchange its token, and nothing else.
      expect(exchanged.statusCode, `${holder}: ${exchanged.body}`).toBe(200);
      keys[holder] = { key, token: exchanged.json<{ token: string }>().token };
    }
  });
  afterAll(() => t.close());

  const send = (method: string, path: string, headers: Record<string, string>): Promise<LightMyRequestResponse> => {
    const url = path.replace(/\{[^}]+\}/g, 'zz_000000000000');
    const m = method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    // An empty body: where the guard lets the call through, validation refuses it, so nothing changes.
    const body = m === 'GET' || m === 'DELETE' ? {} : { payload: {} };
    return t.app.inject({ method: m, url, headers: { ...headers, 'idempotency-key': `walk-${Math.random()}` }, ...body });
  };

  it('every documented route is in the table, and no route outside it is documented', () => {
    const documented = operationsOf(doc).map((o) => `${o.method.toUpperCase()} ${o.path}`);
    const missing = documented.filter((r) => !(r in ROUTES));
    expect(missing, 'routes with no expected access in test/access-walk.test.ts').toEqual([]);
    const stale = Object.keys(ROUTES).filter((r) => !documented.includes(r));
    expect(stale, 'routes in the table that the document does not have').toEqual([]);
  });

  it('each route answers an agent key only when the key names its scope; public routes need no credentials', async () => {
    const problems: string[] = [];
    for (const o of operationsOf(doc)) {
      const route = `${o.method.toUpperCase()} ${o.path}`;
      const expected = ROUTES[route];
      if (expected === undefined || expected === 'own-credential') continue;
      if (expected === 'public') {
        const res = await send(o.method, o.path, {});
        if (res.statusCode === 401 || res.statusCode === 403) problems.push(`${route} is public but answered ${res.statusCode} ${res.body}`);
        continue;
      }
      for (const holder of holders) {
        const res = await send(o.method, o.path, bearer(keys[holder]!.token));
        const allowed = holder === expected;
        const code = res.statusCode === 403 ? res.json<{ error: string }>().error : null;
        if (allowed && code !== null) problems.push(`${route} needs ${expected}, but a key holding it got 403 ${code}`);
        if (!allowed && code !== (REFUSAL[expected] ?? 'INSUFFICIENT_SCOPE')) {
          problems.push(`${route} (${expected}) reached by a key with ${holder === 'none' ? 'no scope' : `only ${holder}`}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('each MCP tool is listed and runs only for a key that names its scope; a key with none sees no tool', async () => {
    const rpc = async (key: string, body: unknown) => {
      const res = await t.app.inject({ method: 'POST', url: '/mcp', headers: { ...bearer(key), ...ACCEPT }, payload: JSON.stringify(body) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ result: { tools?: { name: string }[]; isError?: boolean; content?: { text: string }[] } }>().result;
    };
    // The full key (all scopes) lists every tool there is.
    const all = (await rpc(u.apiKey, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).tools!.map((x) => x.name);
    expect(all.filter((n) => !(n in TOOLS)), 'tools with no expected scope in test/access-walk.test.ts').toEqual([]);

    const problems: string[] = [];
    for (const holder of holders) {
      const { key } = keys[holder]!;
      const listed = (await rpc(key, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).tools!.map((x) => x.name).sort();
      const named = all.filter((n) => TOOLS[n] === holder).sort();
      if (JSON.stringify(listed) !== JSON.stringify(named)) problems.push(`a key with ${holder} lists ${listed.join(', ') || 'nothing'}, expected ${named.join(', ') || 'nothing'}`);
      for (const name of all) {
        const r = await rpc(key, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: {} } });
        const error = r.isError ? (JSON.parse(r.content![0]!.text) as { error: string }).error : null;
        const allowed = TOOLS[name] === holder;
        if (allowed && error === 'INSUFFICIENT_SCOPE') problems.push(`tool ${name} refused a key holding ${holder}`);
        if (!allowed && error !== 'INSUFFICIENT_SCOPE') problems.push(`tool ${name} (${TOOLS[name]}) ran for a key with ${holder === 'none' ? 'no scope' : `only ${holder}`}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
