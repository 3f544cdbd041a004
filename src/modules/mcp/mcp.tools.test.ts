import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, EXTERNAL_CBU, settle, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text: string }[] };

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** What each tool may claim about itself (MCP tool annotations); the hints a client relies on to confirm calls. */
const HINTS: Record<string, Record<string, boolean>> = {
  request_payout: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  propose_threshold_change: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  get_receipt: READ,
  list_recent_deposits: READ,
  get_balance: READ,
  get_cvu: READ,
  get_thresholds: READ,
  get_payout: READ,
  list_payouts: READ,
  list_transactions: READ,
  // Look before paying: they only read, but ask the bank about an account outside this wallet.
  simulate_payout: { ...READ, openWorldHint: true },
  resolve_destination: { ...READ, openWorldHint: true },
};

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

/** A strict Ajv of our own, apart from the SDK's: unknown keywords in an advertised schema are errors here. */
function strictAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

/** Every object node with properties is closed: the advertised shape is the whole shape. */
function openObjects(schema: unknown, path = '#'): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => openObjects(s, `${path}/${i}`));
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  const here = s.properties && s.additionalProperties !== false ? [path] : [];
  return [...here, ...Object.entries(s).flatMap(([k, v]) => (typeof v === 'object' ? openObjects(v, `${path}/${k}`) : []))];
}

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address();
  return `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
}

/**
 * The SDK's own validator, counting what it checks: proof that the client's automatic structuredContent check
 * (armed by tools/list) really ran for each call.
 */
class CountingValidator extends AjvJsonSchemaValidator {
  checks = 0;
  override getValidator<T>(schema: Parameters<AjvJsonSchemaValidator['getValidator']>[0]) {
    const inner = super.getValidator<T>(schema);
    return (input: unknown) => {
      const out = inner(input);
      if (out.valid) this.checks++;
      return out;
    };
  }
}

async function connect(base: string, key: string, validator?: CountingValidator) {
  const client = new Client({ name: 'wallet-test-agent', version: '1.0.0' }, validator ? { jsonSchemaValidator: validator } : {});
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

describe('MCP tools by the book', () => {
  let t: TestApp;
  let base: string;
  let a: OnboardedUser;
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  const validator = new CountingValidator();
  let tools: Tool[];

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000' } });
    base = await listen(t);
    a = await createOnboardedUser(t.app, { name: 'Ana', fundArs: 100_000 });
    ({ client, transport } = await connect(base, a.apiKey, validator));
    tools = (await client.listTools()).tools;
  });
  afterAll(async () => {
    await client.close();
    await t.close();
  });

  it('negotiates the latest protocol version with the SDK client, and an older one when a client asks for it', async () => {
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(client.getServerVersion()).toMatchObject({ name: 'ars-wallet-payouts' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {} });
    const init = async (protocolVersion: string) => {
      const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
        }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { result: { protocolVersion: string } }).result.protocolVersion;
    };
    expect(await init('2025-06-18')).toBe('2025-06-18');
    // A version the server does not know: it answers with its latest; the client decides whether to go on.
    expect(await init('2099-01-01')).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('tools/list: a title at top level and in annotations, truthful hints, exact object output schemas', () => {
    expect(tools.map((x) => x.name).sort()).toEqual(Object.keys(HINTS).sort());
    for (const x of tools) {
      expect(x.title, x.name).toMatch(/^[A-Z]/);
      expect(x.annotations, x.name).toEqual({ title: x.title, ...HINTS[x.name] });
      expect(x.description!.length, x.name).toBeGreaterThan(30);
      expect(x.inputSchema.type).toBe('object');
      // MCP: outputSchema is an object schema; ours is closed at every level and compiles under strict Ajv.
      expect(x.outputSchema?.type, x.name).toBe('object');
      expect(openObjects(x.outputSchema), x.name).toEqual([]);
      expect(() => strictAjv().compile(x.outputSchema!), x.name).not.toThrow();
    }
    const rp = tools.find((x) => x.name === 'request_payout')!;
    expect(rp.description).toMatch(/one new idempotency_key/i);
    expect(rp.description).toMatch(/reuse the same key/i);
    expect(rp.description).toMatch(/never split/i);
    expect(rp.description).toMatch(/pending_approval[^]*then stop/i);
    for (const reason of ['per_tx_limit', 'daily_limit', 'above_approval_threshold', 'amount_invalid', 'kyc_incomplete']) {
      expect(rp.description).toContain(reason);
    }
    // Both answers of a payout request: sent (201) and held (202), each with `replayed`.
    const variants = (rp.outputSchema as unknown as { anyOf: { properties: Record<string, unknown>; required: string[] }[] }).anyOf;
    expect(variants.map((v) => v.properties.decision)).toEqual([{ const: 'allow', type: 'string' }, { const: 'require_approval', type: 'string' }]);
    for (const v of variants) expect(v.required).toContain('replayed');
    // Nullable fields say so.
    const payout = tools.find((x) => x.name === 'get_payout')!.outputSchema as { properties: Record<string, unknown> };
    expect(payout.properties.resolved_at).toEqual({ anyOf: [{ format: 'date-time', type: 'string' }, { type: 'null' }] });
  });

  it('every tool’s structuredContent validates against its advertised outputSchema (Ajv, and the SDK client’s own check)', async () => {
    const ajv = strictAjv();
    const schemas = new Map<string, ValidateFunction>(tools.map((x) => [x.name, ajv.compile(x.outputSchema!)]));
    const seen = new Map<string, number>();
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const res = (await client.callTool({ name, arguments: args })) as ToolResult;
      expect(res.isError, `${name}: ${res.content[0]?.text}`).toBeFalsy();
      const ok = schemas.get(name)!(res.structuredContent);
      expect(ok ? [] : schemas.get(name)!.errors, name).toEqual([]);
      expect(JSON.parse(res.content[0]!.text)).toEqual(res.structuredContent);
      seen.set(name, (seen.get(name) ?? 0) + 1);
      return res.structuredContent!;
    };

    await call('get_balance');
    await call('get_cvu');
    await call('get_thresholds');
    await call('list_recent_deposits', { limit: 5 });

    const sent = await call('request_payout', { amount_ars: 150.5, destination: EXTERNAL_CBU, note: 'by the book', idempotency_key: 'book-1' });
    expect(sent).toEqual({ id: expect.any(String), status: 'submitted', decision: 'allow', replayed: false });
    expect(await call('request_payout', { amount_ars: 150.5, destination: EXTERNAL_CBU, note: 'by the book', idempotency_key: 'book-1' })).toEqual({
      ...sent,
      replayed: true,
    });
    // The key as REST reads it from its header, where HTTP drops surrounding spaces: the same payout.
    expect(
      (await call('request_payout', { amount_ars: 150.5, destination: EXTERNAL_CBU, note: 'by the book', idempotency_key: ' book-1 ' })).replayed,
    ).toBe(true);
    const held = await call('request_payout', { amount_ars: 60_000, destination: EXTERNAL_CBU, idempotency_key: 'book-2' });
    expect(held).toEqual({
      id: expect.any(String),
      status: 'pending_approval',
      decision: 'require_approval',
      reasons: ['above_approval_threshold'],
      approval_id: expect.any(String),
      expires_in: 300,
      replayed: false,
    });
    expect((await call('request_payout', { amount_ars: 60_000, destination: EXTERNAL_CBU, idempotency_key: 'book-2' })).replayed).toBe(true);

    expect(await call('simulate_payout', { amount_ars: 60_000, destination: EXTERNAL_CBU })).toMatchObject({
      decision: 'require_approval',
      reasons: ['above_approval_threshold'],
      destination: { kind: 'CBU', account: EXTERNAL_CBU, holder_name: 'Titular cuenta 5201', bank_name: 'Banco Macro S.A.' },
    });
    expect(await call('resolve_destination', { destination: a.alias })).toMatchObject({ destination_kind: 'ALIAS', account: a.cvu, holder_name: 'Ana' });
    await call('get_payout', { payout_id: sent.id });
    await call('get_receipt', { payout_id: held.id });
    await settle(t);
    expect(await call('get_receipt', { payout_id: sent.id })).toMatchObject({ status: 'confirmed', approved_by: { by: 'policy', via: null }, approval: null });
    const reject = await t.app.inject({ method: 'POST', url: `/v1/approvals/${held.approval_id}/reject`, headers: bearer(a.ownerToken) });
    expect(reject.statusCode).toBe(200);
    expect(await call('get_payout', { payout_id: held.id })).toMatchObject({ status: 'rejected', approval_id: held.approval_id });
    expect(await call('get_receipt', { payout_id: held.id })).toMatchObject({ status: 'rejected', approval: { status: 'rejected' } });
    expect((await call('list_payouts', { limit: 1 })).next_cursor).toEqual(expect.any(String));
    expect((await call('list_payouts')).next_cursor).toBeNull();
    expect((await call('list_transactions', { limit: 1 })).transactions).toHaveLength(1);
    expect(await call('list_recent_deposits')).toMatchObject({ count: 2 });

    expect(await call('propose_threshold_change', { daily_limit_ars: 750000, whitelist_cbus: [EXTERNAL_CBU] })).toMatchObject({
      status: 'pending',
      proposed: { daily_limit_ars: 750000, whitelist_cbus: [EXTERNAL_CBU] },
    });

    // Every tool was called and checked, by us and by the SDK client: one passed SDK check per call.
    expect([...seen.keys()].sort()).toEqual(Object.keys(HINTS).sort());
    expect(validator.checks).toBe([...seen.values()].reduce((n, c) => n + c, 0));
  });

  it('error results are isError without structuredContent, and the SDK client accepts them', async () => {
    const errors: [string, Record<string, unknown>, string][] = [
      ['request_payout', { amount_ars: 1.234, destination: EXTERNAL_CBU, idempotency_key: 'book-deny' }, 'PAYOUT_DENIED'],
      ['request_payout', { amount_ars: 1, destination: EXTERNAL_CBU }, 'INVALID_REQUEST'],
      ['get_payout', { payout_id: 'wd_nope' }, 'NOT_FOUND'],
      ['get_receipt', { payout_id: 'wd_nope' }, 'NOT_FOUND'],
      ['resolve_destination', { destination: 'nadie.tiene.esto' }, 'DESTINATION_NOT_FOUND'],
      ['simulate_payout', { amount_ars: 1, destination: EXTERNAL_CBU, idempotency_key: 'no' }, 'INVALID_REQUEST'],
      ['propose_threshold_change', {}, 'INVALID_REQUEST'],
    ];
    for (const [name, args, code] of errors) {
      const res = (await client.callTool({ name, arguments: args })) as ToolResult;
      expect(res.isError, name).toBe(true);
      expect(res.structuredContent, name).toBeUndefined();
      expect(JSON.parse(res.content[0]!.text)).toMatchObject({ error: code });
    }
  });

  it('over a real socket: a foreign Origin gets 403 and malformed JSON gets -32700', async () => {
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body,
      });
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const foreign = await post({ origin: 'https://evil.example' }, list);
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: 'FORBIDDEN' });
    const malformed = await post({}, '{"jsonrpc":"2.0",');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
    expect((await post({ origin: base }, list)).status).toBe(200);
  });
});

/**
 * The official MCP Inspector in CLI mode (pinned devDependency), a client we did not write, against the real
 * listening server. It validates structuredContent against outputSchema itself (it lists tools before calling).
 */
describe('MCP Inspector CLI', () => {
  const bin = resolve(import.meta.dirname, '../../../node_modules/.bin/mcp-inspector');
  let t: TestApp;
  let url: string;
  let a: OnboardedUser;
  // Async on purpose: the server answers from this process's event loop.
  const inspector = async (...args: string[]) => {
    const { stdout } = await promisify(execFile)(bin, ['--cli', url, '--transport', 'http', '--header', `Authorization: Bearer ${a.apiKey}`, ...args], {
      timeout: 20_000,
    });
    return JSON.parse(stdout) as Record<string, unknown>;
  };

  beforeAll(async () => {
    t = await startTestApp();
    url = `${await listen(t)}/mcp`;
    a = await createOnboardedUser(t.app, { fundArs: 1000 });
  });
  afterAll(() => t.close());

  it('tools/list shows titles, annotations and output schemas', async () => {
    const { tools } = (await inspector('--method', 'tools/list')) as { tools: Tool[] };
    expect(tools).toHaveLength(Object.keys(HINTS).length);
    for (const x of tools) {
      expect(x.annotations).toEqual({ title: x.title, ...HINTS[x.name] });
      expect(x.outputSchema?.type).toBe('object');
    }
  });

  it('tools/call request_payout: structured content, and a replay with the same key', async () => {
    // --tool-arg values are parsed as JSON when they can be: the 22 digits are quoted to stay a string.
    const payout = ['amount_ars=12.5', `destination="${EXTERNAL_CBU}"`, 'idempotency_key=inspector-1'];
    const args = ['--method', 'tools/call', '--tool-name', 'request_payout', '--tool-arg', ...payout];
    const first = (await inspector(...args)) as ToolResult;
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ status: 'submitted', decision: 'allow', replayed: false });
    const again = (await inspector(...args)) as ToolResult;
    expect(again.structuredContent).toEqual({ ...first.structuredContent, replayed: true });
    const balance = (await inspector('--method', 'tools/call', '--tool-name', 'get_balance')) as ToolResult;
    expect(balance.structuredContent).toEqual({ asset: 'ARS', available: '987.50' });
  });
});
