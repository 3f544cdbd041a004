import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, expectError, startTestApp, type TestApp } from '../../test/helpers.js';
import { ConfigError, parseConfig } from '../config.js';

describe('platform: errors, request ids, health, OpenAPI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers unknown routes with 404 NOT_FOUND in the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nope?x=1' });
    expectError(res, 404, 'NOT_FOUND');
    expect(res.json().message).toBe('No route for GET /v1/nope');
  });

  it('puts X-Request-Id on every response, echoing a sane incoming one', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(a.headers['x-request-id']).toMatch(/^req_/);
    const b = await t.app.inject({ method: 'GET', url: '/v1/nope', headers: { 'x-request-id': 'abc-123' } });
    expect(b.headers['x-request-id']).toBe('abc-123');
    const c = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id with spaces' } });
    expect(c.headers['x-request-id']).toMatch(/^req_/);
  });

  it('serves /healthz and /readyz', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ok' });
  });

  it('serves an OpenAPI 3 document built from the route schemas, and /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const p of ['/v1/users', '/v1/login', '/v1/auth/token', '/v1/api-keys', '/v1/api-keys/{id}']) {
      expect(doc.paths[p], p).toBeDefined();
    }
    expect(doc.paths['/v1/api-keys'].get.responses['401']).toBeDefined();
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
  });
});

describe('logs never show secrets', () => {
  it('keeps API keys, passwords and tokens out of the log output', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const t = await startTestApp({ env: { LOG_LEVEL: 'trace' }, deps: { logStream: sink } });
    try {
      const u = await createUser(t.app);
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/api-keys',
        headers: { authorization: `Bearer ${u.ownerToken}` },
        payload: { name: 'agent' },
      });
      await t.app.inject({ method: 'GET', url: '/v1/api-keys', headers: { authorization: `Bearer ${u.apiKey}` } });
      const log = lines.join('');
      expect(log.length).toBeGreaterThan(0);
      expect(log).toContain('/v1/api-keys');
      for (const secret of [u.apiKey, created.json().key, u.ownerToken, u.agentToken, 'correct horse battery']) {
        expect(log).not.toContain(secret);
      }
    } finally {
      await t.close();
    }
  });
});

describe('logged URLs', () => {
  it('show a secret sent in a query parameter (WhatsApp\'s hub.verify_token) as [redacted]', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const verify = 'verify-token-0123456789-abcdef';
    const t = await startTestApp({
      env: {
        LOG_LEVEL: 'info',
        APPROVAL_CHANNELS: 'dashboard,whatsapp',
        WHATSAPP_TOKEN: 'EAAG-test-token',
        WHATSAPP_PHONE_NUMBER_ID: '1234567890',
        WHATSAPP_APP_SECRET: 'app-secret-0123456789-abcdef',
        WHATSAPP_VERIFY_TOKEN: verify,
        WHATSAPP_TEMPLATE: 'aprobacion_pago:es_AR',
      },
      deps: { logStream: sink },
    });
    try {
      const res = await t.app.inject({ method: 'GET', url: `/v1/channels/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${verify}&hub.challenge=1158201444` });
      expect(res.statusCode).toBe(200);
      const log = lines.join('');
      expect(log).toContain('/v1/channels/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=[redacted]&hub.challenge=1158201444');
      expect(log).not.toContain(verify);
    } finally {
      await t.close();
    }
  });
});

describe('request log lines stay small', () => {
  it('a 12 KB URL and Host are cut in the request lines', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        cb();
      },
    });
    const t = await startTestApp({ env: { LOG_LEVEL: 'info' }, deps: { logStream: sink } });
    try {
      const long = 'a'.repeat(12_000);
      const res = await t.app.inject({ method: 'GET', url: `/v1/${long}?q=${long}`, headers: { host: `${long}.example` } });
      expect(res.statusCode).toBe(404);
      const mine = lines.filter((l) => l.includes(res.headers['x-request-id'] as string));
      expect(mine.length).toBeGreaterThan(0);
      for (const l of mine) expect(l.length).toBeLessThan(2_000);
    } finally {
      await t.close();
    }
  });
});

describe('configuration (D3)', () => {
  it('has the documented defaults', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: './data',
      databaseUrl: '',
      jwtExpirySeconds: 86400,
      absoluteCapArs: 5000000,
      approvalTtlSeconds: 300,
      approvalChannels: ['dashboard'],
      rateLimitPerMinute: 60,
      webhook: { pollIntervalMs: 10000, retryDelaysMs: [60000, 300000, 1800000, 7200000], timeoutMs: 30000, allowPrivateNetworks: false },
      sandboxConfirmDelayMs: 2000,
    });
    expect(c.defaults).toEqual({
      perTxLimitArs: 100000,
      dailyLimitArs: 500000,
      monthlyLimitArs: 2000000,
      requireApprovalAboveArs: 50000,
      whitelistCbus: [],
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ APPROVAL_CHANNELS: 'dashboard,pigeon' }, 'APPROVAL_CHANNELS'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ WEBHOOK_RETRY_DELAYS_MS: '1,x' }, 'WEBHOOK_RETRY_DELAYS_MS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ SECRETS_KEY: 'short' }, 'SECRETS_KEY'],
    [{ APPROVAL_CHANNELS: 'telegram' }, 'TELEGRAM_BOT_TOKEN'],
    [{ APPROVAL_CHANNELS: 'telegram', TELEGRAM_BOT_TOKEN: '1:x', TELEGRAM_WEBHOOK_SECRET: 'short' }, 'TELEGRAM_WEBHOOK_SECRET'],
  ])('fails fast on %j naming the variable', (env, name) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(name);
  });

  it('an empty APPROVAL_CHANNELS means no channel', () => {
    expect(parseConfig({ APPROVAL_CHANNELS: ' ' }).approvalChannels).toEqual([]);
    expect(parseConfig({ APPROVAL_CHANNELS: '' }).approvalChannels).toEqual([]);
  });
});
