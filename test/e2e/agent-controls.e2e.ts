import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_CBU, OTHER_CBU, Rest, uniqueEmail } from './api.js';
import { axeSerious, DESKTOP, launchBrowser, logIn, newContext, PHONE, watchConsole } from './browser.js';
import { ROOT, startServer, type RunningServer } from './server.js';

const SHOTS = path.join(ROOT, 'docs', 'screenshots');
const PASSWORD = 'una clave bien larga';

/**
 * D31 in the browser: the owner narrows one agent's key (scopes, allowlist, its own daily budget) and pulls the
 * emergency stop on the home screen; the agent, over REST beside it, feels each change on its next call.
 */
describe('agent controls and the emergency stop (Chromium against the built server)', () => {
  let srv: RunningServer;
  let rest: Rest;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let ctx: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const email = uniqueEmail('carla');
  let ownerToken = '';
  let agentToken = '';
  let keyId = '';
  let heldId = '';
  let heldApprovalId = '';

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    srv = await startServer();
    rest = new Rest(srv.url);
    ({ token: ownerToken } = await rest.newOwner({ email, password: PASSWORD, name: 'Carla', legalName: 'Carla Gómez', fund: 300_000 }));
    const key = await rest.newKey(ownerToken, 'proveedores');
    keyId = key.id;
    agentToken = await rest.agentToken(key.key);
    ({ browser, close: closeBrowser } = await launchBrowser());
    ctx = await newContext(browser, srv.url, DESKTOP);
    page = await ctx.newPage();
    watchConsole(page, problems);
    await logIn(page, email, PASSWORD);
  });

  afterAll(async () => {
    await closeBrowser?.();
    await srv?.stop();
  });

  /** Screenshot at both widths and an axe scan at both: no serious or critical violation. */
  async function capture(name: string, focus?: string) {
    for (const [label, vp] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      await page.setViewportSize(vp);
      await page.evaluate(() => window.scrollTo(0, 0));
      if (focus) {
        // Below the sticky header, which covers the top of the window.
        await page.locator(focus).first().evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 80));
      }
      await page.locator('.toast').first().waitFor({ state: 'detached', timeout: 8_000 }).catch(() => {});
      await page.waitForTimeout(250);
      await page.screenshot({ path: path.join(SHOTS, `dashboard-${name}-${label}.png`) });
      const violations = await axeSerious(page);
      expect(violations, `axe on ${name} (${label}): ${JSON.stringify(violations, null, 1)}`).toEqual([]);
    }
    await page.setViewportSize(DESKTOP);
  }

  const nav = async (name: string) => {
    await page.getByRole('navigation').getByRole('link', { name, exact: false }).first().click();
  };
  const heading = (name: string) => page.getByRole('heading', { level: 1, name });
  const toast = (text: string) => page.locator('.toasts').getByText(text);

  it('the owner edits a key in the browser: a daily budget, an allowlist, one scope fewer', async () => {
    await nav('Agentes');
    await heading('Agentes').waitFor();
    const item = page.locator(`[data-key-id="${keyId}"]`);
    await item.getByText('Editar permisos').click();
    const wallet = item.getByRole('checkbox', { name: /Ver saldo y CVU/ });
    expect(await wallet.isChecked()).toBe(true);
    await wallet.uncheck();
    await item.getByLabel('Límite diario').fill('10.000');
    await item.getByLabel('Nuevo destino permitido').fill(OTHER_CBU);
    await item.getByText('CBU válido.').waitFor();
    await item.getByRole('button', { name: 'Agregar' }).click();
    await item.locator('.chip', { hasText: OTHER_CBU }).waitFor();
    await item.getByRole('button', { name: 'Guardar' }).click();
    await toast('Guardado.').waitFor();

    const keys = (await rest.call('GET', '/v1/api-keys', { token: ownerToken })).json.api_keys as Record<string, unknown>[];
    const saved = keys.find((k) => k.id === keyId)!;
    expect(saved).toMatchObject({ daily_limit_ars: 10000, allowlist: [OTHER_CBU], per_tx_limit_ars: 0 });
    expect(saved.scopes).not.toContain('wallet:read');
    expect(saved.scopes).toContain('payouts:write');
    // The summary follows the saved key, and the pictures show the open editor.
    await expect.poll(() => item.locator('summary').textContent()).toContain('6 de 7 permisos · Límite diario $ 10.000,00 · 1 destino permitido');
    await capture('agent-controls', `[data-key-id="${keyId}"]`);
  });

  it('a past expiry date is refused in the field, in words, and nothing is sent', async () => {
    const item = page.locator(`[data-key-id="${keyId}"]`);
    const patches: string[] = [];
    const onRequest = (r: { method(): string; url(): string }) => r.method() === 'PATCH' && patches.push(r.url());
    page.on('request', onRequest);
    try {
      const date = item.getByLabel('Vence el (opcional)');
      await date.fill('01/01/2020');
      await item.getByText('Esa fecha ya pasó').waitFor();
      expect(await item.getByRole('button', { name: 'Guardar' }).isDisabled()).toBe(true);
      expect(await item.getByRole('alert').count()).toBe(0);
      await date.fill('');
      expect(await item.getByRole('button', { name: 'Guardar' }).isDisabled()).toBe(false);
      expect(patches).toEqual([]);
    } finally {
      page.off('request', onRequest);
    }
  });

  it('an emptied limit says why Save is off, in the field', async () => {
    const item = page.locator(`[data-key-id="${keyId}"]`);
    const perTx = item.getByLabel('Límite por pago');
    await perTx.fill('');
    expect(await item.getByRole('button', { name: 'Guardar' }).isDisabled()).toBe(true);
    await item.getByText('Escribí un monto en pesos').waitFor({ timeout: 5_000 });
    await perTx.fill('0');
    expect(await item.getByText('Escribí un monto en pesos').count()).toBe(0);
    expect(await item.getByRole('button', { name: 'Guardar' }).isDisabled()).toBe(false);
  });

  it('the agent’s next calls follow it: held by its daily budget, denied elsewhere, 403 outside its scopes', async () => {
    const balance = await rest.call('GET', '/v1/balance', { token: agentToken });
    expect(balance.status).toBe(403);
    expect(balance.json.error).toBe('INSUFFICIENT_SCOPE');

    const held = await rest.withdraw(agentToken, { amount_ars: 15000, destination: OTHER_CBU, note: 'Remito 77' });
    expect(held.status).toBe(202);
    expect(held.json.reasons).toEqual(['key_daily_limit']);
    heldId = held.json.id as string;
    heldApprovalId = held.json.approval_id as string;

    const elsewhere = await rest.withdraw(agentToken, { amount_ars: 1000, destination: EXTERNAL_CBU });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.json.error).toBe('PAYOUT_DENIED');
    expect(JSON.stringify(elsewhere.json)).toContain('key_allowlist_violation');

    // In the inbox, in plain words, in Spanish and in English.
    await nav('Aprobaciones');
    const card = page.locator(`[data-approval-id="${heldApprovalId}"]`);
    await card.waitFor({ timeout: 10_000 });
    await expect.poll(() => card.textContent()).toContain('supera el límite diario de este agente');
    expect(await card.textContent()).not.toContain('key_daily_limit');
    expect(await card.textContent()).toContain('Agente «proveedores»');
    await capture('approvals-key-limit');
    await page.getByLabel('Idioma').first().selectOption('en');
    await expect.poll(() => card.textContent()).toContain('above this agent’s daily limit');
    await page.getByLabel('Language').first().selectOption('es');
    await heading('Aprobaciones').waitFor();

    // And on the payout's own page.
    await page.goto(`/payouts/${heldId}`);
    await heading('Detalle del pago').waitFor();
    await page.getByText('supera el límite diario de este agente').first().waitFor();
  });

  it('the emergency stop on home: new payouts denied, approving refused in plain words, rejecting works; off again, payouts work', async () => {
    await page.goto('/');
    await heading('Inicio').waitFor();
    // The switch says what pressing it does now.
    const stop = page.getByRole('switch');
    await expect.poll(() => stop.textContent()).toBe('Pausar todos los pagos');
    expect(await stop.getAttribute('aria-checked')).toBe('false');
    await stop.click();
    await toast('Pagos pausados.').waitFor();
    expect(await stop.getAttribute('aria-checked')).toBe('true');
    expect(await stop.textContent()).toBe('Reanudar los pagos');
    await page.getByText('Pagos pausados. Ningún agente puede pagar').waitFor();
    expect((await rest.call('GET', '/v1/payouts/pause', { token: ownerToken })).json.paused).toBe(true);
    await capture('home-paused');

    const denied = await rest.withdraw(agentToken, { amount_ars: 1000, destination: OTHER_CBU });
    expect(denied.status).toBe(422);
    expect(denied.json.error).toBe('PAYOUT_DENIED');
    expect(JSON.stringify(denied.json)).toContain('payouts_paused');

    await nav('Aprobaciones');
    const card = page.locator(`[data-approval-id="${heldApprovalId}"]`);
    await card.waitFor({ timeout: 10_000 });
    await card.getByRole('button', { name: 'Aprobar' }).click();
    await page.getByRole('dialog', { name: '¿Aprobar este pago?' }).getByRole('button', { name: 'Sí, aprobar' }).click();
    await card.getByRole('alert').getByText('los pagos están pausados con el freno de emergencia').waitFor();
    expect((await rest.call('GET', `/v1/withdraws/${heldId}`, { token: ownerToken })).json.status).toBe('pending_approval');
    await page.getByTestId('paused-notice').getByText('rechazar sí').waitFor();
    await capture('approvals-paused');

    await card.getByRole('button', { name: 'Rechazar' }).click();
    await page.getByRole('dialog', { name: '¿Rechazar este pago?' }).getByRole('button', { name: 'Sí, rechazar' }).click();
    await toast('Rechazado.').waitFor();
    await page.locator(`[data-approval-id="${heldApprovalId}"][data-status="rejected"]`).waitFor({ timeout: 15_000 });
    expect((await rest.call('GET', `/v1/withdraws/${heldId}`, { token: ownerToken })).json.status).toBe('rejected');

    await nav('Inicio');
    await heading('Inicio').waitFor();
    await stop.click();
    await toast('Pagos reanudados.').waitFor();
    expect(await stop.getAttribute('aria-checked')).toBe('false');
    expect((await rest.call('GET', '/v1/payouts/pause', { token: ownerToken })).json.paused).toBe(false);
    const again = await rest.withdraw(agentToken, { amount_ars: 1000, destination: OTHER_CBU });
    expect(again.status).toBe(201);
  });

  it('saw no script error and no CSP violation on any page', () => {
    expect(problems).toEqual([]);
  });
});
