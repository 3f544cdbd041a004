import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestStore, createUser, expectError, PASSWORD, startTestApp, type TestApp } from '../../test/helpers.js';
import { parseConfig } from '../config.js';

const LIMIT = { RATE_LIMIT_PER_MINUTE: '60', OWNER_RATE_LIMIT_PER_MINUTE: '600', SAFETY_ACTIONS_PER_MINUTE: '120' };
/** A route both an agent (thresholds:read) and the owner may call. */
const READ = '/v1/thresholds';

describe('rate limit per user (D14), in-process counters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: LIMIT });
  });
  afterAll(() => t.close());

  it('the 61st agent request in a minute gets 429 with Retry-After; the owner and another user are unaffected (D35)', async () => {
    const [a, b] = [await createUser(t.app), await createUser(t.app)];
    // createUser itself spent 0 user-scoped calls: login and token exchange are counted per address.
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await t.app.inject({ method: 'GET', url: READ, headers: bearer(a.agentToken) })).statusCode);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    const res = await t.app.inject({ method: 'GET', url: READ, headers: bearer(a.agentToken) });
    expectError(res, 429, 'RATE_LIMIT_EXCEEDED');
    expect(statuses[60]).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.headers['ratelimit-limit']).toBe('60');
    expect(res.headers['ratelimit-remaining']).toBe('0');

    // The owner's sessions have a budget of their own.
    const owner = await t.app.inject({ method: 'GET', url: READ, headers: bearer(a.ownerToken) });
    expect(owner.statusCode).toBe(200);
    expect(owner.headers['ratelimit-limit']).toBe('600');
    const other = await t.app.inject({ method: 'GET', url: READ, headers: bearer(b.agentToken) });
    expect(other.statusCode).toBe(200);
    expect(other.headers['ratelimit-remaining']).toBe('59');
  });

  it('limits unauthenticated endpoints per client address', async () => {
    const from = (ip: string) =>
      t.app.inject({ method: 'POST', url: '/v1/auth/token', remoteAddress: ip, payload: { api_key: 'svc_wrong' } });
    for (let i = 0; i < 60; i++) expect((await from('10.9.9.9')).statusCode).toBe(401);
    expectError(await from('10.9.9.9'), 429, 'RATE_LIMIT_EXCEEDED');
    expect((await from('10.9.9.10')).statusCode).toBe(401);
  });

  it('does not count health checks', async () => {
    for (let i = 0; i < 70; i++) {
      expect((await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '10.8.8.8' })).statusCode).toBe(200);
    }
  });
});

describe('failed authentication counts against the client address (D30)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: LIMIT });
  });
  afterAll(() => t.close());

  const rest = (ip: string, token: string) =>
    t.app.inject({ method: 'GET', url: '/v1/api-keys', remoteAddress: ip, headers: bearer(token) });
  const mcp = (ip: string, key: string) =>
    t.app.inject({
      method: 'POST',
      url: '/mcp',
      remoteAddress: ip,
      headers: { ...bearer(key), accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });

  it('150 bad bearers (REST JWTs and MCP keys) from one address: 60 answers 401, then 429 with Retry-After', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 150; i++) {
      last = i % 2 ? await rest('10.20.0.1', `not.a.jwt${i}`) : await mcp('10.20.0.1', `svc_unknown${i}`);
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 60).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(60).every((s) => s === 429)).toBe(true);
    expectError(last!, 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is unaffected.
    expectError(await rest('10.20.0.2', 'not.a.jwt'), 401, 'INVALID_TOKEN');
  });

  it("an exhausted address refuses bad credentials, but serves a good key or session from its user's budget (D35)", async () => {
    const u = await createUser(t.app);
    for (let i = 0; i < 60; i++) expect((await rest('10.20.1.1', 'wrong.jwt.guess')).statusCode).toBe(401);
    expectError(await rest('10.20.1.1', 'another.wrong.guess'), 429, 'RATE_LIMIT_EXCEEDED');
    expectError(await mcp('10.20.1.1', 'svc_unknownunknownunknownunknown00'), 429, 'RATE_LIMIT_EXCEEDED');
    // A raw key (192 random bits) cannot be guessed: it is checked and served from its user's budget, though others
    // at its address (a hosted MCP client, a NAT) spent the address's. It was refused unchecked.
    const agent = await mcp('10.20.1.1', u.apiKey);
    expect(agent.statusCode).toBe(200);
    expect(agent.headers['ratelimit-remaining']).toBe('59');
    // A signed session neither: the owner's is checked and served, from its own budget.
    const owner = await rest('10.20.1.1', u.ownerToken);
    expect(owner.statusCode).toBe(200);
    expect(owner.headers['ratelimit-remaining']).toBe('599');
    // And the owner can still log in from there: a login has a budget of its own per address.
    const login = await t.app.inject({ method: 'POST', url: '/v1/login', remoteAddress: '10.20.1.1', payload: { email: u.email, password: PASSWORD } });
    expect(login.statusCode).toBe(200);
  });

  it('a password is the one credential a guess can find: once an address spent its login budget, even the right one is refused unchecked', async () => {
    const few = await startTestApp({ env: { ...LIMIT, SAFETY_ACTIONS_PER_MINUTE: '5' } });
    try {
      const u = await createUser(few.app);
      const login = (password: string) => few.app.inject({ method: 'POST', url: '/v1/login', remoteAddress: '10.20.1.2', payload: { email: u.email, password } });
      for (let i = 0; i < 5; i++) expect((await login(`wrong-guess-${i}`)).statusCode).toBe(401);
      // A right guess looks like a wrong one until the window ends.
      expectError(await login(PASSWORD), 429, 'RATE_LIMIT_EXCEEDED');
    } finally {
      await few.close();
    }
  });

  it('a good request costs one from the user budget and nothing from the address budget', async () => {
    const u = await createUser(t.app);
    for (let i = 0; i < 60; i++) {
      const res = await t.app.inject({ method: 'GET', url: READ, remoteAddress: '10.20.2.1', headers: bearer(u.agentToken) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-remaining']).toBe(String(59 - i));
    }
    expectError(await t.app.inject({ method: 'GET', url: READ, remoteAddress: '10.20.2.1', headers: bearer(u.agentToken) }), 429, 'RATE_LIMIT_EXCEEDED');
    // The address still has its whole budget: a bad bearer is a plain 401.
    expectError(await rest('10.20.2.1', 'not.a.jwt'), 401, 'INVALID_TOKEN');
  });

  it('requests refused before their handler (owner-only, malformed JSON) still count against the agent', async () => {
    const u = await createUser(t.app);
    for (let i = 0; i < 30; i++) {
      expectError(
        await t.app.inject({ method: 'POST', url: '/v1/api-keys', remoteAddress: '10.20.3.1', headers: bearer(u.agentToken), payload: { name: 'x' } }),
        403,
        'OWNER_SESSION_REQUIRED',
      );
      const bad = await t.app.inject({
        method: 'POST',
        url: '/v1/withdraws',
        remoteAddress: '10.20.3.1',
        headers: { ...bearer(u.agentToken), 'content-type': 'application/json', 'idempotency-key': `bad-${i}` },
        payload: '{"amount_ars":',
      });
      expectError(bad, 400, 'INVALID_JSON');
    }
    expectError(await t.app.inject({ method: 'GET', url: READ, remoteAddress: '10.20.3.1', headers: bearer(u.agentToken) }), 429, 'RATE_LIMIT_EXCEEDED');
    expectError(await rest('10.20.3.1', 'not.a.jwt'), 401, 'INVALID_TOKEN');
  });
});

describe('TRUST_PROXY (D30)', () => {
  /** The service's log lines, as a stream it writes to. */
  const logCapture = () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    return { lines, logStream };
  };
  /** Whether an app started with `env` warns, at start, with a line holding `text`. */
  const warnsAtStart = async (env: Record<string, string>, text: string) => {
    const { lines, logStream } = logCapture();
    const t = await startTestApp({ env: { ...env, LOG_LEVEL: 'warn' }, deps: { logStream } });
    await t.close();
    return lines.some((l) => l.includes(text));
  };

  const from = (t: TestApp, proxy: string, client: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/auth/token',
      remoteAddress: proxy,
      headers: { 'x-forwarded-for': client },
      payload: { api_key: 'svc_wrong' },
    });

  it('off by default: every client behind one proxy shares the proxy address budget, X-Forwarded-For is ignored', async () => {
    const t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      for (const client of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) expect((await from(t, '10.30.0.1', client)).statusCode).toBe(401);
      expectError(await from(t, '10.30.0.1', '203.0.113.4'), 429, 'RATE_LIMIT_EXCEEDED');
    } finally {
      await t.close();
    }
  });

  it('on: the limiter key and the logs use the X-Forwarded-For client', async () => {
    const { lines, logStream } = logCapture();
    const t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: 'true', LOG_LEVEL: 'info' }, deps: { logStream } });
    try {
      for (let i = 0; i < 3; i++) expect((await from(t, '10.30.0.1', '203.0.113.1')).statusCode).toBe(401);
      expectError(await from(t, '10.30.0.1', '203.0.113.1'), 429, 'RATE_LIMIT_EXCEEDED');
      expect((await from(t, '10.30.0.1', '203.0.113.2')).statusCode).toBe(401);
      expect(lines.join('')).toContain('"remoteAddress":"203.0.113.2"');
      expect(lines.join('')).not.toContain('"remoteAddress":"10.30.0.1"');
    } finally {
      await t.close();
    }
  });

  it('set to the proxy: a client that writes its own X-Forwarded-For entries still gets the address the proxy saw', async () => {
    // A proxy that appends (nginx's $proxy_add_x_forwarded_for) passes on whatever the client put first.
    const t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '10.30.0.1' } });
    try {
      for (let i = 0; i < 3; i++) expect((await from(t, '10.30.0.1', `198.51.100.${i}, 203.0.113.1`)).statusCode).toBe(401);
      expectError(await from(t, '10.30.0.1', '198.51.100.99, 203.0.113.1'), 429, 'RATE_LIMIT_EXCEEDED');
      // With `true` every hop is trusted, and the client's own first entry is taken: hence the warning below.
      const all = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: 'true' } });
      try {
        for (let i = 0; i < 4; i++) expect((await from(all, '10.30.0.1', `198.51.100.${i}, 203.0.113.1`)).statusCode).toBe(401);
      } finally {
        await all.close();
      }
    } finally {
      await t.close();
    }
  });

  it('TRUST_PROXY=true warns at start: unless the proxy replaces X-Forwarded-For, clients choose their address', async () => {
    for (const [env, warns] of [
      [{ TRUST_PROXY: 'true' }, true],
      [{ TRUST_PROXY: '10.0.0.1' }, false],
      [{}, false],
    ] as const) {
      expect(await warnsAtStart(env, 'TRUST_PROXY=true trusts every'), JSON.stringify(env)).toBe(warns);
    }
  });

  it('an https PUBLIC_URL without TRUST_PROXY warns at start (the service speaks plain HTTP: a TLS proxy is in front)', async () => {
    for (const [env, warns] of [
      [{ PUBLIC_URL: 'https://pay.example.com' }, true],
      [{ PUBLIC_URL: 'https://pay.example.com', TRUST_PROXY: '10.0.0.1' }, false],
      [{ PUBLIC_URL: 'http://localhost:3000' }, false],
    ] as const) {
      expect(await warnsAtStart(env, 'TRUST_PROXY is false'), JSON.stringify(env)).toBe(warns);
    }
  });

  it('parses true/false and a list of proxy addresses; refuses anything else', () => {
    expect(parseConfig({}).trustProxy).toBe(false);
    expect(parseConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(parseConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(() => parseConfig({ TRUST_PROXY: '2' })).toThrow(/TRUST_PROXY/);
    expect(parseConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8,127.0.0.1');
    expect(() => parseConfig({ TRUST_PROXY: 'yes please' })).toThrow(/TRUST_PROXY/);
  });
});

describe('rate limit shared through Redis (D14)', () => {
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl && process.env.CI === 'true') {
    it('needs TEST_REDIS_URL in CI', () => {
      throw new Error('TEST_REDIS_URL is required when CI=true: the shared rate limit must be proven on Redis');
    });
    return;
  }
  it.runIf(!!redisUrl)('two app instances share one counter per user', async () => {
    const store = await createTestStore();
    const env = { ...LIMIT, REDIS_URL: redisUrl! };
    const one = await startTestApp({ env, store });
    const two = await startTestApp({ env, store });
    try {
      const u = await createUser(one.app);
      for (let i = 0; i < 60; i++) {
        const node = i % 2 ? one : two;
        expect((await node.app.inject({ method: 'GET', url: READ, headers: bearer(u.agentToken) })).statusCode).toBe(200);
      }
      expectError(await one.app.inject({ method: 'GET', url: READ, headers: bearer(u.agentToken) }), 429, 'RATE_LIMIT_EXCEEDED');
      expectError(await two.app.inject({ method: 'GET', url: READ, headers: bearer(u.agentToken) }), 429, 'RATE_LIMIT_EXCEEDED');
      const v = await createUser(two.app);
      expect((await one.app.inject({ method: 'GET', url: READ, headers: bearer(v.agentToken) })).statusCode).toBe(200);
    } finally {
      await one.close();
      await two.close();
      await store.drop();
    }
  });
});
