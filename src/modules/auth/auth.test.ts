import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import {
  bearer,
  createUser,
  expectError,
  PASSWORD,
  startTestApp,
  TEST_JWT_SECRET,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.js';
import { registerAccess } from '../../http/auth.js';
import { registerErrorHandling } from '../../http/errors.js';
import { JWT_AUDIENCE, JWT_ISSUER } from './tokens.js';

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('auth: login, token exchange and the bearer guard', () => {
  let t: TestApp;
  let alice: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    alice = await createUser(t.app);
  });
  afterAll(() => t.close());

  const protectedCall = (headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/v1/payouts/pause', headers });

  it('logs the owner in and exchanges a key, both with expires_in from JWT_EXPIRY_HOURS', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { email: alice.email, password: PASSWORD } });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toEqual({ token: expect.any(String), expires_in: 86400 });
    const ex = await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: alice.apiKey } });
    expect(ex.statusCode).toBe(200);
    expect(ex.json().expires_in).toBe(86400);
    expect((await protectedCall(bearer(ex.json().token))).statusCode).toBe(200);
  });

  it('answers INVALID_CREDENTIALS for a wrong password and for an unknown email alike', async () => {
    const wrong = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { email: alice.email, password: 'wrong-password' } });
    expectError(wrong, 401, 'INVALID_CREDENTIALS');
    const unknown = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { email: 'nobody@example.com', password: PASSWORD } });
    expectError(unknown, 401, 'INVALID_CREDENTIALS');
    expect(unknown.json().message).toBe(wrong.json().message);
  });

  it('answers INVALID_API_KEY for wrong, malformed and missing keys', async () => {
    for (const api_key of ['svc_' + 'A'.repeat(32), 'nope', alice.apiKey + 'x']) {
      expectError(await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key } }), 401, 'INVALID_API_KEY');
    }
    expectError(await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: {} }), 400, 'INVALID_REQUEST');
  });

  it('no bearer token (no header, another scheme, an empty bearer) → UNAUTHENTICATED; a token that is no JWT → INVALID_TOKEN', async () => {
    // Contract, Errors: UNAUTHENTICATED is "Bearer token missing"; INVALID_TOKEN is a JWT that does not check out.
    expectError(await protectedCall(), 401, 'UNAUTHENTICATED');
    for (const authorization of ['Basic abc', 'Bearer', 'Bearer ', 'Bearer a b']) {
      const res = await protectedCall({ authorization });
      expectError(res, 401, 'UNAUTHENTICATED');
      expect(res.json().message).toContain('Bearer <token>');
    }
    expectError(await protectedCall({ authorization: 'Bearer garbage' }), 401, 'INVALID_TOKEN');
  });

  it('refuses a raw svc_ key on REST and says to exchange it', async () => {
    const res = await protectedCall(bearer(alice.apiKey));
    expectError(res, 401, 'INVALID_TOKEN');
    expect(res.json().message).toContain('/v1/auth/token');
  });

  it('expires tokens after JWT_EXPIRY_HOURS → TOKEN_EXPIRED', async () => {
    const token = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: alice.apiKey } })).json().token;
    t.clock.advance(24 * 3600 * 1000 + 1000);
    try {
      expectError(await protectedCall(bearer(token)), 401, 'TOKEN_EXPIRED');
    } finally {
      t.clock.advance(-(24 * 3600 * 1000 + 1000));
    }
  });

  it('a token already accepted still expires, and a copy with another signature is still refused', async () => {
    const token: string = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: alice.apiKey } })).json().token;
    expect((await protectedCall(bearer(token))).statusCode).toBe(200);
    const sig = token.slice(token.lastIndexOf('.') + 1);
    const forged = `${token.slice(0, token.lastIndexOf('.') + 1)}${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    expectError(await protectedCall(bearer(forged)), 401, 'INVALID_TOKEN');
    t.clock.advance(24 * 3600 * 1000 + 1000);
    try {
      expectError(await protectedCall(bearer(token)), 401, 'TOKEN_EXPIRED');
    } finally {
      t.clock.advance(-(24 * 3600 * 1000 + 1000));
    }
  });

  it('refuses a token signed with another secret, alg none, and wrong issuer or audience', async () => {
    const claims = { kind: 'owner' };
    const sign = (secret: string, iss = JWT_ISSUER, aud = JWT_AUDIENCE) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(alice.id)
        .setIssuer(iss)
        .setAudience(aud)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(secret));
    expectError(await protectedCall(bearer(await sign('another-secret-another-secret-123456'))), 401, 'INVALID_TOKEN');
    expectError(await protectedCall(bearer(await sign(TEST_JWT_SECRET, 'someone-else'))), 401, 'INVALID_TOKEN');
    expectError(await protectedCall(bearer(await sign(TEST_JWT_SECRET, JWT_ISSUER, 'other-aud'))), 401, 'INVALID_TOKEN');
    const now = Math.floor(Date.now() / 1000);
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, sub: alice.id, iss: JWT_ISSUER, aud: JWT_AUDIENCE, iat: now, exp: now + 3600 })}.`;
    expectError(await protectedCall(bearer(none)), 401, 'INVALID_TOKEN');
    // HS384 with the right secret is still refused: the algorithm is pinned.
    const hs384 = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS384' })
      .setSubject(alice.id)
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    expectError(await protectedCall(bearer(hs384)), 401, 'INVALID_TOKEN');
  });

  it('a token of a deleted user → 404 USER_NOT_FOUND', async () => {
    const carol = await createUser(t.app);
    await t.app.ctx.store.db.deleteFrom('api_keys').where('user_id', '=', carol.id).execute();
    await t.app.ctx.store.db.deleteFrom('users').where('id', '=', carol.id).execute();
    expectError(await protectedCall(bearer(carol.ownerToken)), 404, 'USER_NOT_FOUND');
    expectError(await protectedCall(bearer(carol.agentToken)), 404, 'USER_NOT_FOUND');
  });
});

describe('owner-session guard (D13)', () => {
  let t: TestApp;
  let alice: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    alice = await createUser(t.app);
  });
  afterAll(() => t.close());

  it('lets the owner session through and refuses an agent session with 403 OWNER_SESSION_REQUIRED', async () => {
    // A probe route on a bare Fastify with the real guards and error handler, over the real store: the
    // owner-only routes themselves (thresholds, approvals, webhook) test the guard again where they live.
    const probe = Fastify();
    registerErrorHandling(probe);
    probe.decorateRequest('principal', null);
    registerAccess(probe, t.app.ctx);
    probe.get('/owner-only', { config: { access: 'owner' } }, async () => ({ ok: true }));
    await probe.ready();
    try {
      const owner = await probe.inject({ method: 'GET', url: '/owner-only', headers: bearer(alice.ownerToken) });
      expect(owner.json()).toEqual({ ok: true });
      expectError(await probe.inject({ method: 'GET', url: '/owner-only', headers: bearer(alice.agentToken) }), 403, 'OWNER_SESSION_REQUIRED');
      expectError(await probe.inject({ method: 'GET', url: '/owner-only' }), 401, 'UNAUTHENTICATED');
    } finally {
      await probe.close();
    }
  });
});
