import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../src/modules/auth/tokens.js';
import { answerChecker, fetchDocument, operationsOf, type Answer, type OpenApiDoc, type Operation } from './openapi-contract.js';
import { bearer, createOnboardedUser, startTestApp, TEST_JWT_SECRET, type OnboardedUser, type TestApp } from './helpers.js';

/**
 * The error surface, proved from the outside: every documented operation is sent the requests that real clients
 * get wrong, and whatever it answers must be documented for it, status and code (the codes are enums in the
 * document). A route that can answer an error its schema does not list fails here.
 */

interface Provocation {
  name: string;
  /** Credentials to send: the operation's own kind (default), none, or a bad one. */
  auth?: 'none' | 'garbage' | 'expired' | 'unknown-user' | 'agent';
  id?: string;
  query?: string;
  /** Only for methods that may carry a body. */
  body?: { contentType: string; payload: string };
  withoutIdempotencyKey?: boolean;
}

const json = (payload: unknown) => ({ contentType: 'application/json', payload: JSON.stringify(payload) });

const PROVOCATIONS: Provocation[] = [
  { name: 'no credentials', auth: 'none' },
  { name: 'a bearer that is not a token', auth: 'garbage' },
  { name: 'an expired token', auth: 'expired' },
  { name: 'a token of a user that does not exist', auth: 'unknown-user' },
  { name: 'an agent session', auth: 'agent' },
  { name: 'ids that do not exist', id: 'zz_000000000000' },
  { name: 'an id longer than any id', id: 'x'.repeat(65) },
  { name: 'query values out of range', query: `limit=0&status=nope&format=nope&cursor=${'c'.repeat(65)}` },
  { name: 'no Idempotency-Key', withoutIdempotencyKey: true, body: json({ amount_ars: 1, destination: 'x' }) },
  { name: 'a text/plain body', body: { contentType: 'text/plain', payload: 'hello' } },
  { name: 'a form body', body: { contentType: 'application/x-www-form-urlencoded', payload: 'a=1' } },
  { name: 'malformed JSON', body: { contentType: 'application/json', payload: '{"amount_ars": ' } },
  { name: 'a body over 64 KiB', body: json({ note: 'x'.repeat(70 * 1024) }) },
  { name: 'an unknown field', body: json({ zz_unknown_field: 1 }) },
  { name: 'an empty object', body: json({}) },
  { name: 'a JSON array', body: json([1]) },
];

describe('every error a route answers is documented for it', () => {
  let t: TestApp;
  let doc: OpenApiDoc;
  let check: (a: Answer) => string | null;
  let user: OnboardedUser;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp();
    doc = await fetchDocument(t.app);
    check = await answerChecker(doc);
    user = await createOnboardedUser(t.app, { fundArs: 1000 });
    const settings = { secret: TEST_JWT_SECRET, expirySeconds: 60 };
    tokens.expired = (await issueToken(settings, { userId: user.id, kind: 'owner' }, new Date(Date.now() - 86_400_000))).token;
    tokens['unknown-user'] = (await issueToken(settings, { userId: 'usr_doesnotexist', kind: 'owner' }, new Date())).token;
  });
  afterAll(() => t.close());

  function credentials(o: Operation, p: Provocation): Record<string, string> {
    const scheme = Object.keys(o.op.security?.[0] ?? {})[0];
    switch (p.auth) {
      case 'none':
        return {};
      case 'garbage':
        return { authorization: 'Bearer not-a-token' };
      case 'expired':
      case 'unknown-user':
        return bearer(tokens[p.auth]!);
      case 'agent':
        return bearer(scheme === 'mcpApiKey' ? user.apiKey : user.agentToken);
      default:
        if (scheme === 'mcpApiKey') return bearer(user.apiKey);
        return scheme === 'bearerAuth' ? bearer(user.ownerToken) : {};
    }
  }

  async function send(o: Operation, p: Provocation, headers: Record<string, string>): Promise<LightMyRequestResponse> {
    const url = o.path.replace(/\{[^}]+\}/g, encodeURIComponent(p.id ?? 'zz_000000000000')) + (p.query ? `?${p.query}` : '');
    const takesKey = (o.op.parameters ?? []).some((x: { in: string; name: string }) => x.in === 'header' && x.name === 'idempotency-key');
    const all = { ...headers, ...(takesKey && !p.withoutIdempotencyKey ? { 'idempotency-key': `walk-${Math.random()}` } : {}) };
    if (p.body) {
      return t.app.inject({ method: o.method.toUpperCase() as 'POST', url, headers: { ...all, 'content-type': p.body.contentType }, payload: p.body.payload });
    }
    if (o.op.responses?.['200']?.content?.['text/event-stream']) return firstOfStream(url, all);
    return t.app.inject({ method: o.method.toUpperCase() as 'GET', url, headers: all });
  }

  /** A stream never ends: its answer is checked on its status, headers and first chunk. */
  async function firstOfStream(url: string, headers: Record<string, string>): Promise<LightMyRequestResponse> {
    const res = await t.app.inject({ method: 'GET', url, headers, payloadAsStream: true });
    const stream = res.stream();
    const first = await new Promise<string>((resolve) => stream.once('data', (c: Buffer) => resolve(c.toString())).once('end', () => resolve('')));
    stream.destroy();
    return { ...res, statusCode: res.statusCode, headers: res.headers, body: first, json: () => JSON.parse(first) } as LightMyRequestResponse;
  }

  it('under every provocation, on every documented operation', async () => {
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const o of operationsOf(doc)) {
      for (const p of PROVOCATIONS) {
        if (p.body && o.method === 'get') continue;
        const res = await send(o, p, credentials(o, p));
        const problem = check({ method: o.method, path: o.path, status: res.statusCode, contentType: res.headers['content-type'] as string, body: res.body });
        if (problem) problems.push(`${p.name}: ${problem}`);
        if (res.statusCode >= 400) seen.add(`${res.statusCode} ${res.json<{ error?: string }>().error ?? 'json-rpc'}`);
      }
    }
    expect(problems).toEqual([]);
    // The walk reached the refusals it is meant to prove, not only the first one every route gives.
    for (const s of [
      '401 UNAUTHENTICATED',
      '401 INVALID_TOKEN',
      '401 TOKEN_EXPIRED',
      '404 USER_NOT_FOUND',
      '403 OWNER_SESSION_REQUIRED',
      '404 NOT_FOUND',
      '400 INVALID_REQUEST',
      '400 INVALID_JSON',
      '400 MISSING_IDEMPOTENCY_KEY',
      '413 PAYLOAD_TOO_LARGE',
      '415 UNSUPPORTED_MEDIA_TYPE',
      '401 unauthorized',
    ]) {
      expect([...seen], s).toContain(s);
    }
  });

  it('MCP answers (JSON-RPC and our envelope) are documented', async () => {
    const o = operationsOf(doc).find((x) => x.path === '/mcp' && x.method === 'post')!;
    const accept = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    const rpc = (body: unknown, extra: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/mcp', headers: { ...bearer(user.apiKey), ...accept, ...extra }, payload: JSON.stringify(body) });
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'walk', version: '1' } },
    };
    const answers = [
      await rpc(initialize),
      await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_balance', arguments: {} } }),
      await rpc({ jsonrpc: '2.0', id: 4, method: 'no/such/method' }),
      await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      await rpc([initialize]),
      await rpc(initialize, { origin: 'https://evil.example' }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 202, 400, 403]);
    for (const res of answers) {
      expect(check({ method: 'post', path: o.path, status: res.statusCode, contentType: res.headers['content-type'] as string, body: res.body })).toBeNull();
    }
  });
});

describe('the rate limit is documented wherever it applies', () => {
  it('answers 429 on every limited operation once the budget is spent', async () => {
    const t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2', SAFETY_ACTIONS_PER_MINUTE: '2' } });
    try {
      const doc = await fetchDocument(t.app);
      const check = await answerChecker(doc);
      // Failed authentications spend the client address's budget, which is checked before any credential.
      for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: '/v1/balance', headers: { authorization: 'Bearer nope' } });
      // A login has a budget of its own per address (D35), spent here by failed logins.
      for (let i = 0; i < 3; i++) await t.app.inject({ method: 'POST', url: '/v1/login', payload: { email: 'nobody@example.com', password: 'wrong password' } });
      const problems: string[] = [];
      let limited = 0;
      for (const o of operationsOf(doc)) {
        const res = await t.app.inject({ method: o.method.toUpperCase() as 'GET', url: o.path.replace(/\{[^}]+\}/g, 'zz_1') });
        if (res.statusCode === 429) {
          limited++;
          expect(res.headers['retry-after']).toBeDefined();
        }
        const problem = check({ method: o.method, path: o.path, status: res.statusCode, contentType: res.headers['content-type'] as string, body: res.body });
        if (problem) problems.push(problem);
      }
      expect(problems).toEqual([]);
      expect(limited).toBe(operationsOf(doc).filter((o) => o.op.tags[0] !== 'health').length);
    } finally {
      await t.close();
    }
  });
});
