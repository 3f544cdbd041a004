import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, expectError, EXTERNAL_CBU, settle, startTestApp, withdraw, type TestApp } from '../../../test/helpers.js';

describe('receipts (D21)', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof createOnboardedUser>>;
  let id: string;
  beforeAll(async () => {
    t = await startTestApp();
    owner = await createOnboardedUser(t.app, { name: 'Ana Pérez', fundArs: 500_000 });
    id = (await withdraw(t.app, owner.agentToken, { amount_ars: 1234.56, destination: EXTERNAL_CBU, note: 'Honorarios <noviembre>' })).json().id;
    await settle(t);
  });
  afterAll(() => t.close());

  const receipt = (headers: Record<string, string> = {}, query = '', token = owner.ownerToken) =>
    t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}/receipt${query}`, headers: { ...bearer(token), ...headers } });

  it('renders a printable Spanish voucher by default, with Argentine money format and escaped text', async () => {
    const res = await receipt();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('Comprobante de transferencia');
    expect(res.body).toContain('$ 1.234,56');
    expect(res.body).toContain('Acreditada');
    expect(res.body).toContain(owner.cvu);
    expect(res.body).toContain('Titular cuenta 5201');
    expect(res.body).toContain('agente «default»');
    expect(res.body).toContain('Honorarios &#60;noviembre&#62;');
    expect(res.body).not.toContain('<noviembre>');
  });

  it('answers JSON with every receipt field', async () => {
    const res = await receipt({ accept: 'application/json' });
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toMatchObject({
      payout_id: id,
      status: 'confirmed',
      amount_ars: 1234.56,
      currency: 'ARS',
      origin: { cvu: owner.cvu, holder_name: 'Ana Pérez', holder_legal_id: owner.legalId },
      destination: { value: EXTERNAL_CBU, kind: 'CBU', recipient_name: 'Titular cuenta 5201' },
      provider_transfer_id: expect.stringMatching(/^trf_/),
      api_key_name: 'default',
      note: 'Honorarios <noviembre>',
      created_at: expect.any(String),
      submitted_at: expect.any(String),
      resolved_at: expect.any(String),
    });
  });

  it('answers a PDF on request', async () => {
    for (const res of [await receipt({ accept: 'application/pdf' }), await receipt({}, '?format=pdf')]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    }
  });

  it('another user’s receipt is 404; no token is 401', async () => {
    const other = await createOnboardedUser(t.app);
    expectError(await receipt({ accept: 'application/json' }, '', other.ownerToken), 404, 'NOT_FOUND');
    expectError(await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}/receipt` }), 401, 'UNAUTHENTICATED');
  });
});
