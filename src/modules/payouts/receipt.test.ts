import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createOnboardedUser,
  expectError,
  EXTERNAL_CBU,
  setThresholds,
  settle,
  startTestApp,
  withdraw,
  type OnboardedUser,
  type TestApp,
} from '../../../test/helpers.js';

/**
 * D21 through the HTTP surface. The PDF is checked the way a person would see it: poppler renders it to PNG and
 * extracts its text. In CI poppler-utils is installed by .ci/run, and a missing poppler fails these tests there
 * rather than skipping them; elsewhere they are skipped with a note.
 */
const POPPLER = spawnSync('pdftoppm', ['-v']).error === undefined && spawnSync('pdftotext', ['-v']).error === undefined;
const itPdf = POPPLER || process.env.CI === 'true' ? it : it.skip;
if (!POPPLER && process.env.CI !== 'true') console.warn('[receipt.test] poppler-utils missing: PDF rendering tests skipped');

const work = mkdtempSync(path.join(tmpdir(), 'receipt-pdf-'));
let files = 0;
function pdfFile(pdf: Buffer): string {
  const file = path.join(work, `r${++files}.pdf`);
  writeFileSync(file, pdf);
  return file;
}
const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-enc', 'UTF-8', pdfFile(pdf), '-'], { encoding: 'utf8' });
/** Renders page 1 to PNG; poppler must not complain about the file (fonts, structure). */
function pdfPng(pdf: Buffer): string {
  const prefix = path.join(work, `p${++files}`);
  const run = spawnSync('pdftoppm', ['-png', '-r', '96', '-f', '1', '-l', '1', '-singlefile', pdfFile(pdf), prefix], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stderr).toBe('');
  return `${prefix}.png`;
}
/** `UPDATE_SCREENSHOTS=1` refreshes the README's pictures from what the test just rendered. */
function keepScreenshot(png: string, name: string): void {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  const dir = fileURLToPath(new URL('../../../docs/screenshots', import.meta.url));
  mkdirSync(dir, { recursive: true });
  copyFileSync(png, path.join(dir, name));
}

const NOTE = 'ñandú ✓ 🧉';
const TIME_24H = /\b([01]\d|2[0-3]):[0-5]\d:[0-5]\d\b/;
const TWELVE_HOUR = /\b(AM|PM)\b|[ap]\.\s?m\./i;
const MASKED_EXTERNAL = `285${'•'.repeat(15)}5201`;

describe('receipts (D21)', () => {
  let t: TestApp;
  let owner: OnboardedUser;
  let id: string;
  beforeAll(async () => {
    t = await startTestApp();
    // 14:05:09 in Buenos Aires (UTC-3): an afternoon time shows whether the clock is 24-hour.
    t.clock.set('2026-11-22T17:05:09.000Z');
    owner = await createOnboardedUser(t.app, { name: 'Ana Pérez', fundArs: 500_000 });
    id = (await withdraw(t.app, owner.agentToken, { amount_ars: 1234.56, destination: EXTERNAL_CBU, note: NOTE })).json().id;
    await settle(t);
  });
  afterAll(async () => {
    await t.close();
    rmSync(work, { recursive: true, force: true });
  });

  const get = (payoutId: string, headers: Record<string, string> = {}, query = '', token = owner.ownerToken) =>
    t.app.inject({ method: 'GET', url: `/v1/withdraws/${payoutId}/receipt${query}`, headers: { ...bearer(token), ...headers } });
  const json = async (payoutId: string) => (await get(payoutId, { accept: 'application/json' })).json();
  const html = async (payoutId: string) => (await get(payoutId)).body;
  const pdf = async (payoutId: string) => {
    const res = await get(payoutId, { accept: 'application/pdf' });
    expect(res.headers['content-type']).toBe('application/pdf');
    return res.rawPayload;
  };
  const decide = (approvalId: string, verdict: 'approve' | 'reject') =>
    t.app.inject({ method: 'POST', url: `/v1/approvals/${approvalId}/${verdict}`, headers: bearer(owner.ownerToken) });
  /** A payout that needs the owner (D15 above_approval_threshold); the threshold is put back afterwards. */
  async function pendingPayout(body: Record<string, unknown>) {
    await setThresholds(t.app, owner.ownerToken, { require_approval_above_ars: 1000 });
    const res = await withdraw(t.app, owner.agentToken, { amount_ars: 5000, destination: EXTERNAL_CBU, ...body });
    await setThresholds(t.app, owner.ownerToken, { require_approval_above_ars: 100_000 });
    expect(res.statusCode, res.body).toBe(202);
    return res.json() as { id: string; approval_id: string };
  }

  it('the JSON form carries the title, bank, approver, operation id and reference, with ISO timestamps', async () => {
    const r = await json(id);
    expect(r).toMatchObject({
      payout_id: id,
      status: 'confirmed',
      title: 'Comprobante de transferencia',
      amount_ars: 1234.56,
      currency: 'ARS',
      origin: { cvu: owner.cvu, alias: owner.alias, holder_name: 'Ana Pérez', holder_legal_id: owner.legalId },
      destination: {
        value: EXTERNAL_CBU,
        kind: 'CBU',
        account: EXTERNAL_CBU,
        account_masked: MASKED_EXTERNAL,
        account_type: 'CBU',
        bank_code: '285',
        bank_name: 'Banco Macro S.A.',
        recipient_name: 'Titular cuenta 5201',
      },
      provider_transfer_id: expect.stringMatching(/^trf_/),
      reference: expect.stringMatching(/^[0-9A-Z]{15}$/),
      api_key_name: 'default',
      note: NOTE,
      created_at: '2026-11-22T17:05:09.000Z',
      approved_at: '2026-11-22T17:05:09.000Z',
      submitted_at: expect.any(String),
      resolved_at: expect.any(String),
      approved_by: { by: 'policy', via: null },
      approval: null,
      failure_reason: null,
      failure_reason_text: null,
    });
    // Reversible: the voucher's number leads back to the rail's transfer.
    expect(r.operation_id).toBe(r.provider_transfer_id.slice(4).toUpperCase());
    expect(r.operation_id).toMatch(/^[0-9A-Z]{20,}$/);
  });

  it('the HTML voucher says the same in Spanish, 24-hour Buenos Aires times, the bank by name and a masked account', async () => {
    const body = await html(id);
    const r = await json(id);
    expect(body).toContain('<h1>Comprobante de transferencia</h1>');
    expect(body).toContain('$ 1.234,56');
    expect(body).toContain('Acreditada');
    expect(body).toContain('22 nov 2026, 14:05:09');
    expect(body).not.toMatch(TWELVE_HOUR);
    expect(body).toContain('Banco Macro S.A.');
    expect(body).toContain(MASKED_EXTERNAL);
    expect(body).not.toContain(EXTERNAL_CBU);
    expect(body).toContain(owner.cvu);
    expect(body).toContain('Titular cuenta 5201');
    expect(body).toContain('agente «default»');
    expect(body).toContain(r.operation_id);
    expect(body).toContain(r.reference);
    expect(body).toContain('automáticamente, dentro de los límites configurados');
    expect(body).toContain(NOTE);
    expect(body).not.toContain('no acredita un pago');
  });

  itPdf('the PDF receipt with a note containing `ñandú ✓ 🧉` extracts the same text back; times are 24-hour', async () => {
    const file = await pdf(id);
    const text = pdfText(file);
    const r = await json(id);
    expect(text).toContain(NOTE);
    expect(text).toContain('Comprobante de transferencia');
    expect(text).toContain('22 nov 2026, 14:05:09');
    expect(text).toMatch(TIME_24H);
    expect(text).not.toMatch(TWELVE_HOUR);
    expect(text).toContain('$ 1.234,56');
    expect(text).toContain('Banco Macro S.A.');
    expect(text).toContain(MASKED_EXTERNAL);
    expect(text).not.toContain(EXTERNAL_CBU);
    expect(text).toContain(r.operation_id);
    expect(text).toContain(r.reference);
    expect(text).toContain('Ana Pérez');
    // Fonts are embedded (subsets), so the page looks the same on any reader.
    const fonts = execFileSync('pdffonts', [pdfFile(file)], { encoding: 'utf8' });
    expect(fonts).toMatch(/DejaVuSans\s.*\byes\s+yes\s+yes\b/);
    expect(fonts).toMatch(/NotoEmoji-Regular\s.*\byes\s+yes\s+yes\b/);
    expect(fonts).not.toMatch(/Helvetica/);
    const png = pdfPng(file);
    expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
    expect(statSync(png).size).toBeGreaterThan(20_000);
    keepScreenshot(png, 'receipt-confirmed.png');
  });

  itPdf('a character neither embedded font has is drawn and extracted as "�", in its place; HTML keeps it, escaped', async () => {
    const other = (await withdraw(t.app, owner.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU, note: 'pago 中文 <ok>' })).json().id;
    expect(pdfText(await pdf(other))).toContain('pago \uFFFD\uFFFD <ok>');
    const body = await html(other);
    expect(body).toContain('pago 中文 &#60;ok&#62;');
    expect(body).not.toContain('<ok>');
  });

  it('answers HTML by default, JSON and PDF on request (Accept or ?format=)', async () => {
    expect((await get(id)).headers['content-type']).toContain('text/html');
    for (const res of [await get(id, { accept: 'application/pdf' }), await get(id, {}, '?format=pdf')]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    }
    expect((await get(id, {}, '?format=json')).json().payout_id).toBe(id);
    // A clear 400 names the formats there are.
    const wrong = await get(id, {}, '?format=xml');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'INVALID_REQUEST', message: 'querystring.format: must be equal to one of the allowed values (one of html, json, pdf)' });
  });

  it('reads the weights of Accept: the highest wins, 0 refuses a format, ties go to the one named first', async () => {
    const typeFor = async (accept: string) => (await get(id, { accept })).headers['content-type'];
    expect(await typeFor('text/html;q=0.1, application/json')).toContain('application/json');
    expect(await typeFor('application/pdf;q=0, application/json;q=0.5')).toContain('application/json');
    expect(await typeFor('application/json;q=0, */*')).toContain('text/html');
    expect(await typeFor('application/json, text/html')).toContain('application/json');
    expect(await typeFor('application/*')).toContain('application/json');
    expect(await typeFor('*/*;q=0.8, application/pdf')).toBe('application/pdf');
    expect(await typeFor('image/png')).toContain('text/html');
  });

  itPdf('a payout the bank rejected: "Transferencia fallida" with the reason in Spanish, and never a voucher title', async () => {
    const poor = await createOnboardedUser(t.app, { name: 'Carla Núñez', fundArs: 5 });
    const res = await withdraw(t.app, poor.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU, note: 'Alquiler de diciembre' });
    expectError(res, 502, 'WITHDRAW_FAILED');
    const failedId = res.json().payout_id as string;
    const r = (await get(failedId, { accept: 'application/json' }, '', poor.ownerToken)).json();
    expect(r).toMatchObject({
      status: 'failed',
      title: 'Transferencia fallida',
      failure_reason: 'insufficient_funds',
      failure_reason_text: 'La cuenta de origen no tenía saldo suficiente.',
      operation_id: null,
    });
    const body = (await get(failedId, {}, '', poor.ownerToken)).body;
    expect(body).toContain('<h1>Transferencia fallida</h1>');
    expect(body).toContain('La cuenta de origen no tenía saldo suficiente.');
    expect(body).toContain('Este documento no acredita un pago.');
    const file = (await get(failedId, { accept: 'application/pdf' }, '', poor.ownerToken)).rawPayload;
    const text = pdfText(file);
    expect(text).toContain('Transferencia fallida');
    expect(text).toContain('La cuenta de origen no tenía saldo suficiente.');
    expect(text).toContain('No tiene: no llegó al banco');
    expect(text).toContain('Este documento no acredita un pago.');
    expect(text).not.toContain('Comprobante de transferencia');
    expect(text).not.toMatch(TWELVE_HOUR);
    keepScreenshot(pdfPng(file), 'receipt-failed.png');
  });

  it('a payout in flight is "en curso" and not proof of payment until the bank confirms it', async () => {
    const inFlight = (await withdraw(t.app, owner.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU })).json().id;
    expect(await json(inFlight)).toMatchObject({ status: 'submitted', title: 'Transferencia en curso', operation_id: expect.any(String) });
    expect(await html(inFlight)).toContain('Este documento no acredita un pago.');
    await settle(t);
    expect(await json(inFlight)).toMatchObject({ status: 'confirmed', title: 'Comprobante de transferencia' });
    expect(await html(inFlight)).not.toContain('Este documento no acredita un pago.');
  });

  it('approved by the owner: the approval date and the approver (owner, through the dashboard) are shown', async () => {
    const p = await pendingPayout({ note: 'alquiler' });
    const pending = await json(p.id);
    expect(pending).toMatchObject({ title: 'Transferencia pendiente de aprobación', approval: { id: p.approval_id, status: 'pending' } });
    expect(await html(p.id)).toContain('Vence');
    t.clock.advance(30_000);
    expect((await decide(p.approval_id, 'approve')).statusCode).toBe(200);
    await settle(t);
    const r = await json(p.id);
    expect(r).toMatchObject({
      status: 'confirmed',
      title: 'Comprobante de transferencia',
      approved_by: { by: 'owner', via: 'dashboard' },
      approval: { id: p.approval_id, status: 'approved', decided_via: 'dashboard', decided_at: r.approved_at },
    });
    const body = await html(p.id);
    expect(body).toContain('Supera el monto que pide aprobación');
    // Buenos Aires is UTC-3 all year: the approval's wall time, written out independently of the code under test.
    const local = new Date(Date.parse(r.approved_at) - 3 * 3600_000).toISOString();
    expect(body).toContain(`<th>Aprobada</th><td>${Number(local.slice(8, 10))} nov 2026, ${local.slice(11, 19)}`);
    expect(body).toContain('por el titular de la cuenta desde el panel');
  });

  it('rejected and expired approvals: their titles, who decided, and that no money moved', async () => {
    const rejected = await pendingPayout({});
    expect((await decide(rejected.approval_id, 'reject')).statusCode).toBe(200);
    expect(await json(rejected.id)).toMatchObject({
      title: 'Transferencia rechazada',
      status_text: 'El titular de la cuenta la rechazó. No se movió dinero.',
      approved_by: null,
      approval: { status: 'rejected', decided_via: 'dashboard' },
    });
    expect(await html(rejected.id)).toContain('por el titular de la cuenta desde el panel');

    const expired = await pendingPayout({});
    t.clock.advance(300_000);
    await t.app.jobs.approvalExpiry!.runOnce();
    expect(await json(expired.id)).toMatchObject({ title: 'Transferencia vencida', approval: { status: 'expired', decided_via: 'expiry' } });
    const body = await html(expired.id);
    expect(body).toContain('sin respuesta del titular');
    expect(body).toContain('Este documento no acredita un pago.');
  });

  it('an approval refused by the re-check (D28) lists every reason in plain Spanish', async () => {
    const p = await pendingPayout({});
    await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(owner.ownerToken), payload: { status: 'pending' } });
    expectError(await decide(p.approval_id, 'approve'), 422, 'PAYOUT_DENIED');
    await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(owner.ownerToken), payload: { status: 'verified' } });
    const r = await json(p.id);
    expect(r).toMatchObject({ status: 'failed', title: 'Transferencia fallida', failure_reason: 'kyc_incomplete' });
    expect(r.failure_reason_text).toBe('La identidad del titular de la cuenta todavía no está verificada.');
    expect(await html(p.id)).toContain('no pasó la nueva verificación');
  });

  it('a CVU destination is a virtual account of a PSP, not a bank', async () => {
    const payee = await createOnboardedUser(t.app, { name: 'Bruno Díaz' });
    const paid = (await withdraw(t.app, owner.agentToken, { amount_ars: 20, destination: payee.cvu, destination_kind: 'CVU' })).json().id;
    const r = await json(paid);
    expect(r.destination).toMatchObject({ account_type: 'CVU', bank_name: null, psp_code: payee.cvu.slice(3, 7), institution: `Cuenta virtual (CVU) · PSP ${payee.cvu.slice(3, 7)}` });
    const body = await html(paid);
    expect(body).toContain('<th>Entidad</th><td>Cuenta virtual (CVU)');
    expect(body).toContain(`${payee.cvu.slice(0, 3)}${'•'.repeat(15)}${payee.cvu.slice(18)}`);
    expect(body).not.toContain(payee.cvu);
  });

  it('another user’s receipt is 404; no token is 401', async () => {
    const other = await createOnboardedUser(t.app);
    expectError(await get(id, { accept: 'application/json' }, '', other.ownerToken), 404, 'NOT_FOUND');
    expectError(await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}/receipt` }), 401, 'UNAUTHENTICATED');
  });
});
