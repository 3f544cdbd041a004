import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, PASSWORD, startTestApp, uniqueEmail, type TestApp } from '../../../test/helpers.js';

describe('POST /v1/users', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('creates a user with its default API key (D9)', async () => {
    const email = uniqueEmail();
    const res = await t.app.inject({ method: 'POST', url: '/v1/users', payload: { email, password: PASSWORD, name: 'Ana' } });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ email, name: 'Ana', onboarding_status: 'pending' });
    expect(body.id).toMatch(/^usr_[0-9a-z]{26}$/);
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(body.password).toBeUndefined();
    expect(body.password_hash).toBeUndefined();
    expect(body.default_api_key).toMatchObject({ name: 'default' });
    expect(body.default_api_key.id).toMatch(/^key_/);
    expect(body.default_api_key.key).toMatch(/^svc_[A-Za-z0-9_-]{32}$/);
  });

  it('refuses a taken email, case-insensitively, with 409 EMAIL_TAKEN', async () => {
    const email = uniqueEmail();
    await t.app.inject({ method: 'POST', url: '/v1/users', payload: { email, password: PASSWORD, name: 'A' } });
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/users',
      payload: { email: email.toUpperCase(), password: PASSWORD, name: 'B' },
    });
    expectError(res, 409, 'EMAIL_TAKEN');
  });

  it('two parallel sign-ups with one email create exactly one user', async () => {
    const email = uniqueEmail();
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        t.app.inject({ method: 'POST', url: '/v1/users', payload: { email, password: PASSWORD, name: 'A' } }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
  });

  it.each([
    [{ email: 'not-an-email', password: PASSWORD, name: 'A' }, 'body.email'],
    [{ email: uniqueEmail(), password: 'short', name: 'A' }, 'body.password'],
    [{ email: uniqueEmail(), password: PASSWORD }, 'body.name'],
    [{ email: uniqueEmail(), password: PASSWORD, name: 'A', admin: true }, 'body'],
  ])('rejects %j with 400 INVALID_REQUEST naming %s', async (payload, field) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/users', payload });
    expectError(res, 400, 'INVALID_REQUEST');
    expect(res.json().message).toContain(field);
  });

  it('answers malformed JSON with 400 INVALID_JSON and creates nothing', async () => {
    const before = await t.app.ctx.store.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/users',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "x@y.z", ',
    });
    expectError(res, 400, 'INVALID_JSON');
    const after = await t.app.ctx.store.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    expect(Number(after?.n)).toBe(Number(before?.n));
  });

  it('answers an oversize body with 413 and a non-JSON body with 415', async () => {
    const big = await t.app.inject({
      method: 'POST',
      url: '/v1/users',
      payload: { email: uniqueEmail(), password: PASSWORD, name: 'x'.repeat(100_000) },
    });
    expectError(big, 413, 'PAYLOAD_TOO_LARGE');
    const text = await t.app.inject({
      method: 'POST',
      url: '/v1/users',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expectError(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
});
