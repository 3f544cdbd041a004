import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createOnboardedUser,
  createUser,
  EXTERNAL_CBU,
  settle,
  startTestApp,
  withdraw,
  type OnboardedUser,
  type TestApp,
} from '../../../test/helpers.js';
import { holdWrites } from '../../../test/hold-writes.js';

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text: string }[] };

/** The machine-readable body of a failed tool call. */
const err = (r: ToolResult) => {
  expect(r.isError).toBe(true);
  return JSON.parse(r.content[0]!.text) as Record<string, unknown>;
};

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address();
  return `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
}

async function connect(base: string, key: string): Promise<Client> {
  const client = new Client({ name: 'wallet-test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

describe('MCP surface', () => {
  let t: TestApp;
  let base: string;
  let a: OnboardedUser;
  let mcp: Client;
  const call = async (name: string, args: Record<string, unknown> = {}, client = mcp) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;

  beforeAll(async () => {
    t = await startTestApp();
    base = await listen(t);
    a = await createOnboardedUser(t.app, { name: 'Ana', fundArs: 100_000 });
    mcp = await connect(base, a.apiKey);
  });
  afterAll(async () => {
    await mcp.close();
    await t.close();
  });

  it('lists the tools with input and output schemas and hints', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual(
      ['get_balance', 'get_cvu', 'get_payout', 'get_receipt', 'get_thresholds', 'list_payouts', 'list_recent_deposits', 'list_transactions', 'propose_threshold_change', 'request_payout', 'resolve_destination', 'simulate_payout'].sort(),
    );
    const rp = tools.find((x) => x.name === 'request_payout')!;
    expect(rp.inputSchema.required).toEqual(expect.arrayContaining(['amount_ars', 'destination', 'idempotency_key']));
    expect(rp.description).toMatch(/reuse the same key/i);
    expect(rp.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(rp.outputSchema?.type).toBe('object');
    const deposits = tools.find((x) => x.name === 'list_recent_deposits')!;
    expect((deposits.inputSchema.properties as Record<string, { minimum: number; maximum: number }>).limit).toMatchObject({ minimum: 1, maximum: 50 });
    for (const x of tools.filter((x) => x.name.startsWith('get_') || x.name.startsWith('list_'))) {
      expect(x.annotations?.readOnlyHint).toBe(true);
    }
  });

  it('read tools: balance, cvu, thresholds, deposits (structured content and the same JSON as text)', async () => {
    const bal = await call('get_balance');
    expect(bal.structuredContent).toEqual({ asset: 'ARS', available: '100000.00' });
    expect(JSON.parse(bal.content[0]!.text)).toEqual(bal.structuredContent);
    expect((await call('get_cvu')).structuredContent).toEqual({ cvu: a.cvu, alias: a.alias, asset: 'ARS' });
    expect((await call('get_thresholds')).structuredContent).toMatchObject({ per_tx_limit_ars: 100000, require_approval_above_ars: 50000 });
    const deps = await call('list_recent_deposits');
    expect(deps.structuredContent).toMatchObject({ count: 1, transfers: [{ direction: 'credit', amount: '100000.00' }] });
    const one = await call('list_recent_deposits', { limit: 1 });
    expect(one.structuredContent?.count).toBe(1);
  });

  it('request_payout, get_payout, list_payouts, get_receipt on the happy path', async () => {
    const res = await call('request_payout', { amount_ars: 150.5, destination: EXTERNAL_CBU, note: 'mcp', idempotency_key: 'mcp-1' });
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toMatchObject({ status: 'submitted', decision: 'allow', replayed: false });
    const id = res.structuredContent!.id as string;
    await settle(t);
    expect((await call('get_payout', { payout_id: id })).structuredContent).toMatchObject({
      id,
      status: 'confirmed',
      amount_ars: 150.5,
      api_key_id: a.apiKeyId,
      api_key_name: 'default',
    });
    const list = await call('list_payouts', { limit: 5 });
    expect((list.structuredContent!.withdraws as { id: string }[])[0]!.id).toBe(id);
    const receipt = await call('get_receipt', { payout_id: id });
    expect(receipt.structuredContent).toMatchObject({ payout_id: id, status: 'confirmed', amount_ars: 150.5, currency: 'ARS', note: 'mcp' });
    const pending = await call('request_payout', { amount_ars: 60_000, destination: EXTERNAL_CBU, idempotency_key: 'mcp-2' });
    expect(pending.structuredContent).toMatchObject({ status: 'pending_approval', reasons: ['above_approval_threshold'], expires_in: 300 });
    const again = await call('request_payout', { amount_ars: 60_000, destination: EXTERNAL_CBU, idempotency_key: 'mcp-2' });
    expect(again.structuredContent).toMatchObject({ id: pending.structuredContent!.id, replayed: true });
  });

  it('business failures are isError results with the REST codes', async () => {
    const denied = await call('request_payout', { amount_ars: 1.234, destination: EXTERNAL_CBU, idempotency_key: 'mcp-deny' });
    expect(denied.isError).toBe(true);
    expect(err(denied)).toMatchObject({ error: 'PAYOUT_DENIED', reasons: ['amount_invalid'] });
    expect(JSON.parse(denied.content[0]!.text)).toMatchObject({ error: 'PAYOUT_DENIED' });
    const rail = await call('request_payout', { amount_ars: 1, destination: 'sandbox.reject', destination_kind: 'ALIAS', idempotency_key: 'mcp-rej' });
    expect(err(rail)).toMatchObject({ error: 'WITHDRAW_FAILED' });
    const missingKey = await call('request_payout', { amount_ars: 1, destination: EXTERNAL_CBU });
    expect(err(missingKey)).toMatchObject({ error: 'INVALID_REQUEST' });
    expect(String(err(missingKey).message)).toContain('idempotency_key');
    expect(err(await call('list_recent_deposits', { limit: 51 }))).toMatchObject({ error: 'INVALID_REQUEST' });
    expect(err(await call('get_payout', { payout_id: 'wd_nope' }))).toMatchObject({ error: 'NOT_FOUND' });
    expect(err(await call('propose_threshold_change', {}))).toMatchObject({ error: 'INVALID_REQUEST' });

    const fresh = await createUser(t.app);
    const c = await connect(base, fresh.apiKey);
    try {
      expect(err(await call('get_balance', {}, c))).toMatchObject({ error: 'ONBOARDING_INCOMPLETE' });
      expect(err(await call('request_payout', { amount_ars: 1, destination: EXTERNAL_CBU, idempotency_key: 'x' }, c))).toMatchObject({ error: 'ONBOARDING_INCOMPLETE',
      });
      expect((await call('list_recent_deposits', {}, c)).structuredContent).toEqual({ transfers: [], count: 0 });
    } finally {
      await c.close();
    }
  });

  it('an unknown tool is a protocol error, not a tool result, whose message says its code once', async () => {
    const e = await mcp.callTool({ name: 'drain_wallet', arguments: {} }).then(
      () => null,
      (x: Error & { code?: number }) => x,
    );
    expect(e?.code).toBe(-32602);
    expect(e?.message).toMatch(/^MCP error -32602: Unknown tool: drain_wallet; tools\/list/);
    expect(e?.message.match(/MCP error/g)).toHaveLength(1);
  });

  it('serverInfo.version is the package version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(mcp.getServerVersion()).toEqual({ name: 'ars-wallet-payouts', version: pkg.version });
  });

  it('a REST session token sent to /mcp is told that MCP takes the raw key', async () => {
    for (const token of [a.agentToken, a.ownerToken]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { ...bearer(token), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'unauthorized', message: expect.stringMatching(/raw API key \(svc_…\)/) });
    }
  });

  it('one idempotency namespace: a payout through MCP and one through REST with the same key create one attempt', async () => {
    const viaMcp = await call('request_payout', { amount_ars: 42, destination: EXTERNAL_CBU, idempotency_key: 'shared-key' });
    const viaRest = await withdraw(t.app, a.agentToken, { amount_ars: 42, destination: EXTERNAL_CBU }, 'shared-key');
    expect(viaRest.headers['idempotent-replayed']).toBe('true');
    expect(viaRest.json().id).toBe(viaMcp.structuredContent!.id);
    const rows = await t.app.ctx.store.db.selectFrom('payouts').select('id').where('user_id', '=', a.id).where('idempotency_key', '=', 'shared-key').execute();
    expect(rows).toHaveLength(1);
    // The same key with a different request is refused on MCP as on REST, and creates nothing.
    const reused = await call('request_payout', { amount_ars: 43, destination: EXTERNAL_CBU, idempotency_key: 'shared-key' });
    expect(err(reused)).toMatchObject({ error: 'IDEMPOTENCY_KEY_REUSED' });
    const after = await t.app.ctx.store.db.selectFrom('payouts').select('id').where('user_id', '=', a.id).where('idempotency_key', '=', 'shared-key').execute();
    expect(after).toHaveLength(1);
  });

  it('20 parallel requests with one key, half through MCP and half through REST: one payout, the rest replay or wait', async () => {
    const body = { amount_ars: 44, destination: EXTERNAL_CBU };
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        if (i % 2) {
          const r = await withdraw(t.app, a.agentToken, body, 'parallel-key');
          return r.statusCode === 201 ? String(r.json().id) : String(r.json().error);
        }
        const r = await call('request_payout', { ...body, idempotency_key: 'parallel-key' });
        return r.isError ? String(err(r).error) : String(r.structuredContent!.id);
      }),
    );
    const rows = await t.app.ctx.store.db.selectFrom('payouts').select('id').where('user_id', '=', a.id).where('idempotency_key', '=', 'parallel-key').execute();
    expect(rows).toHaveLength(1);
    for (const answer of answers) expect([rows[0]!.id, 'IDEMPOTENCY_KEY_IN_USE']).toContain(answer);
  });

  it('records the key used on every call', async () => {
    await call('get_balance');
    const rows = await t.app.ctx.store.db.selectFrom('audit_log').selectAll().where('user_id', '=', a.id).where('action', '=', 'mcp.get_balance').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.api_key_id === a.apiKeyId && r.api_key_name === 'default')).toBe(true);
  });

  it('a deleted key gets 401 unauthorized at once; other keys still work', async () => {
    const k = (await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(a.ownerToken), payload: { name: 'doomed' } })).json();
    const c = await connect(base, k.key);
    expect((await call('get_balance', {}, c)).isError).toBeFalsy();
    await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${k.id}`, headers: bearer(a.ownerToken) });
    await expect(call('get_balance', {}, c)).rejects.toThrow();
    await c.close().catch(() => {});
    const raw = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${k.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual({ error: 'unauthorized', message: expect.any(String) });
    expect(raw.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const none = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(none.status).toBe(401);
    // A JWT is not an MCP credential.
    const jwt = await fetch(`${base}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${a.agentToken}`, 'content-type': 'application/json' }, body: '{}' });
    expect(jwt.status).toBe(401);
    expect((await call('get_balance')).isError).toBeFalsy();
  });

  it('GET and DELETE /mcp answer 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${base}/mcp`, { method, headers: { authorization: `Bearer ${a.apiKey}` } });
      expect(res.status).toBe(405);
      expect((await res.json()).error).toBe('METHOD_NOT_ALLOWED');
    }
  });

  it('a key of user A never reads or acts on user B’s payouts, receipts or deposits', async () => {
    const b = await createOnboardedUser(t.app, { fundArs: 1000 });
    const bPayout = (await withdraw(t.app, b.agentToken, { amount_ars: 5, destination: EXTERNAL_CBU })).json().id;
    expect(err(await call('get_payout', { payout_id: bPayout }))).toMatchObject({ error: 'NOT_FOUND' });
    expect(err(await call('get_receipt', { payout_id: bPayout }))).toMatchObject({ error: 'NOT_FOUND' });
    const mine = (await call('list_recent_deposits', { limit: 50 })).structuredContent!.transfers as { to: string; from: string }[];
    expect(mine.every((d) => d.to === a.cvu || d.from === a.cvu)).toBe(true);
    const list = (await call('list_payouts', { limit: 100 })).structuredContent!.withdraws as { id: string }[];
    expect(list.map((w) => w.id)).not.toContain(bPayout);
  });
});

describe('MCP propose_threshold_change', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp();
    base = await listen(t);
  });
  afterAll(() => t.close());

  const setup = async () => {
    const u = await createOnboardedUser(t.app);
    const c = await connect(base, u.apiKey);
    return { u, c };
  };
  const thresholds = async (token: string) => (await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(token) })).json();

  it('changes nothing until the owner approves; then only the proposed fields', async () => {
    const { u, c } = await setup();
    const before = await thresholds(u.ownerToken);
    const res = (await c.callTool({ name: 'propose_threshold_change', arguments: { daily_limit_ars: 750000, whitelist_cbus: [EXTERNAL_CBU] } })) as ToolResult;
    expect(res.structuredContent).toMatchObject({ status: 'pending', expires_in: 300, proposed: { daily_limit_ars: 750000, whitelist_cbus: [EXTERNAL_CBU] } });
    expect(await thresholds(u.ownerToken)).toEqual(before);
    const approvals = (await t.app.inject({ method: 'GET', url: '/v1/approvals', headers: bearer(u.ownerToken) })).json().approvals;
    expect(approvals[0]).toMatchObject({ kind: 'threshold_change', status: 'pending', threshold_change: { proposed: { daily_limit_ars: 750000 } } });
    const ok = await t.app.inject({ method: 'POST', url: `/v1/approvals/${res.structuredContent!.approval_id}/approve`, headers: bearer(u.ownerToken) });
    expect(ok.statusCode).toBe(200);
    expect(await thresholds(u.ownerToken)).toEqual({ ...before, daily_limit_ars: 750000, whitelist_cbus: [EXTERNAL_CBU] });
    // Decided, the approval still says what was proposed: measured against the limits now in force (which hold it),
    // it would say nothing changed.
    const changed = { daily_limit_ars: 750000, whitelist_cbus: [EXTERNAL_CBU] };
    expect(ok.json().threshold_change).toMatchObject({ proposed: changed });
    const listed = (await t.app.inject({ method: 'GET', url: '/v1/approvals?status=approved', headers: bearer(u.ownerToken) })).json().approvals;
    expect(listed[0]).toMatchObject({ status: 'approved', threshold_change: { proposed: changed } });
    expect(Object.keys(listed[0].threshold_change.proposed).sort()).toEqual(Object.keys(changed).sort());
    await c.close();
  });

  it('rejection and expiry change nothing; the agent cannot approve its own proposal', async () => {
    const { u, c } = await setup();
    const before = await thresholds(u.ownerToken);
    const r1 = (await c.callTool({ name: 'propose_threshold_change', arguments: { per_tx_limit_ars: 1e9 } })) as ToolResult;
    const selfApprove = await t.app.inject({ method: 'POST', url: `/v1/approvals/${r1.structuredContent!.approval_id}/approve`, headers: bearer(u.agentToken) });
    expect(selfApprove.statusCode).toBe(403);
    await t.app.inject({ method: 'POST', url: `/v1/approvals/${r1.structuredContent!.approval_id}/reject`, headers: bearer(u.ownerToken) });
    expect(await thresholds(u.ownerToken)).toEqual(before);

    const r2 = (await c.callTool({ name: 'propose_threshold_change', arguments: { monthly_limit_ars: 0 } })) as ToolResult;
    t.clock.advance(301_000);
    await t.app.jobs.approvalExpiry!.runOnce();
    const late = await t.app.inject({ method: 'POST', url: `/v1/approvals/${r2.structuredContent!.approval_id}/approve`, headers: bearer(u.ownerToken) });
    expect(late.json().error).toBe('APPROVAL_EXPIRED');
    expect(await thresholds(u.ownerToken)).toEqual(before);
    const bad = (await c.callTool({ name: 'propose_threshold_change', arguments: { whitelist_cbus: ['nope'] } })) as ToolResult;
    // The tool's arguments are named as the agent sent them (there is no request body on MCP).
    expect(err(bad)).toMatchObject({ error: 'INVALID_REQUEST', message: 'whitelist_cbus: "nope" is not a valid CBU, CVU or alias' });
    const cents = (await c.callTool({ name: 'propose_threshold_change', arguments: { per_tx_limit_ars: 5.555 } })) as ToolResult;
    expect(err(cents)).toMatchObject({ error: 'INVALID_REQUEST', message: 'per_tx_limit_ars: a non-negative amount with at most 2 decimals' });
    await c.close();
  });
});

describe('MCP limits and configuration', () => {
  it('the per-user rate limit applies to MCP calls too', async () => {
    const t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '6' } });
    try {
      const base = await listen(t);
      const u = await createUser(t.app);
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await fetch(`${base}/mcp`, {
          method: 'POST',
          headers: { authorization: `Bearer ${u.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/list' }),
        });
        statuses.push(res.status);
        if (res.status === 429) expect((await res.json()).error).toBe('RATE_LIMIT_EXCEEDED');
      }
      expect(statuses.slice(0, 6).every((s) => s === 200)).toBe(true);
      expect(statuses[6]).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('APPROVAL_NOT_CONFIGURED when no channel can ask the owner', async () => {
    const t = await startTestApp({ env: { APPROVAL_CHANNELS: '' } });
    try {
      const base = await listen(t);
      const u = await createOnboardedUser(t.app, { fundArs: 100_000 });
      const c = await connect(base, u.apiKey);
      const res = (await c.callTool({ name: 'request_payout', arguments: { amount_ars: 60_000, destination: EXTERNAL_CBU, idempotency_key: 'n' } })) as ToolResult;
      expect(err(res)).toMatchObject({ error: 'APPROVAL_NOT_CONFIGURED' });
      const prop = (await c.callTool({ name: 'propose_threshold_change', arguments: { daily_limit_ars: 1 } })) as ToolResult;
      expect(err(prop)).toMatchObject({ error: 'APPROVAL_NOT_CONFIGURED' });
      await c.close();
    } finally {
      await t.close();
    }
  });
});

describe('MCP and per-agent controls (D31)', () => {
  it('a read-only key lists no payout tool and cannot call one; an allowlisted key is denied elsewhere', async () => {
    const t = await startTestApp();
    try {
      const base = await listen(t);
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      const mk = async (body: Record<string, unknown>) =>
        (await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(u.ownerToken), payload: { name: 'agent', ...body } })).json().key as string;
      const reader = await connect(base, await mk({ scopes: ['wallet:read', 'transactions:read'] }));
      try {
        const names = (await reader.listTools()).tools.map((x) => x.name).sort();
        expect(names).toEqual(['get_balance', 'get_cvu', 'list_recent_deposits', 'list_transactions']);
        const res = (await reader.callTool({ name: 'request_payout', arguments: { amount_ars: 1, destination: EXTERNAL_CBU, idempotency_key: 'ro-1' } })) as ToolResult;
        expect(err(res)).toMatchObject({ error: 'INSUFFICIENT_SCOPE' });
      } finally {
        await reader.close();
      }
      expect(await t.app.ctx.store.db.selectFrom('payouts').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
      const fenced = await connect(base, await mk({ allowlist: ['0170099220000067797370'] }));
      try {
        const res = (await fenced.callTool({ name: 'request_payout', arguments: { amount_ars: 1, destination: EXTERNAL_CBU, idempotency_key: 'al-1' } })) as ToolResult;
        expect(err(res)).toMatchObject({ error: 'PAYOUT_DENIED', reasons: ['key_allowlist_violation'] });
      } finally {
        await fenced.close();
      }
    } finally {
      await t.close();
    }
  });
});

describe('MCP when the database cannot serve the call (D42, D8)', () => {
  it('a tool call whose audit row cannot be written is a SERVICE_UNAVAILABLE tool result, never the database’s own words', { timeout: 30_000 }, async () => {
    const t = await startTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '300' } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      const rpc = (name: string, args: Record<string, unknown>) =>
        t.app.inject({
          method: 'POST',
          url: '/mcp',
          headers: { ...bearer(u.apiKey), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
          payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
        });
      // A first call records the key's use, so the one under the lock writes nothing but its audit row.
      expect((await rpc('get_balance', {})).json().result.isError).toBeFalsy();
      const release = await holdWrites(t, 'audit_log');
      let res;
      try {
        res = await rpc('request_payout', { amount_ars: 10, destination: EXTERNAL_CBU, idempotency_key: 'audit-locked' });
      } finally {
        await release();
      }
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.error, res.body).toBeUndefined();
      expect(body.result.isError).toBe(true);
      expect(JSON.parse(body.result.content[0].text)).toEqual({ error: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/retry/i) });
      expect(res.body).not.toMatch(/lock|SQLITE|busy|canceling|statement/i);
      // Nothing ran: the same key is free and pays once the database answers again.
      expect(await t.app.ctx.store.db.selectFrom('payouts').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
      const retry = await rpc('request_payout', { amount_ars: 10, destination: EXTERNAL_CBU, idempotency_key: 'audit-locked' });
      expect(retry.json().result.structuredContent).toMatchObject({ status: 'submitted', replayed: false });
    } finally {
      await t.close();
    }
  });
});
