import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram } from '../fake-telegram.js';
import { buttonPress, signedDelivery, startFakeWhatsApp, statusUpdate, textMessage } from '../fake-whatsapp.js';
import { EXTERNAL_CBU, OTHER_CBU, randomCuit, Rest, uniqueEmail } from './api.js';
import { axeSerious, DESKTOP, launchBrowser, linesOf, logIn, newContext, overflowOf, PHONE, watchConsole } from './browser.js';
import { startReceiver } from './receiver.js';
import { ROOT, startServer, type RunningServer } from './server.js';

const SHOTS = path.join(ROOT, 'docs', 'screenshots');
const PASSWORD = 'una clave bien larga';
const TG_TOKEN = '123456:e2e-token';
const TG_SECRET = 'e2e-telegram-webhook-secret';
const WA_PHONE_ID = '106540352242922';
const WA_SECRET = 'e2e-whatsapp-app-secret';
const ANA_PHONE = '5491155551234';

/**
 * The owner's day in the dashboard, end to end: the real built server on SQLite, Debian's Chromium, the agent
 * acting over REST beside it. Each screen is scanned with axe-core and photographed at phone and desktop widths
 * into docs/screenshots/ (the README shows them).
 */
describe('dashboard (Chromium against the built server)', () => {
  let srv: RunningServer;
  let rest: Rest;
  let tg: Awaited<ReturnType<typeof startFakeTelegram>>;
  let wa: Awaited<ReturnType<typeof startFakeWhatsApp>>;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let ctx: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const email = uniqueEmail('ana');
  let agentKey = '';
  let agentToken = '';
  let ownerToken = '';
  let approvedId = '';

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    tg = await startFakeTelegram(TG_TOKEN);
    wa = await startFakeWhatsApp(WA_PHONE_ID);
    srv = await startServer({
      APPROVAL_CHANNELS: 'dashboard,whatsapp,telegram',
      TELEGRAM_BOT_TOKEN: TG_TOKEN,
      TELEGRAM_WEBHOOK_SECRET: TG_SECRET,
      TELEGRAM_API_ROOT: tg.apiRoot,
      WHATSAPP_TOKEN: 'EAAG-e2e',
      WHATSAPP_PHONE_NUMBER_ID: WA_PHONE_ID,
      WHATSAPP_APP_SECRET: WA_SECRET,
      WHATSAPP_VERIFY_TOKEN: 'e2e-whatsapp-verify-token',
      WHATSAPP_TEMPLATE: 'aprobacion_pago:es_AR',
      WHATSAPP_API_ROOT: wa.apiRoot,
    });
    rest = new Rest(srv.url);
    ({ browser, close: closeBrowser } = await launchBrowser());
    ctx = await newContext(browser, srv.url, DESKTOP);
    page = await ctx.newPage();
    watchConsole(page, problems);
  });

  afterAll(async () => {
    await closeBrowser?.();
    await srv?.stop();
    await tg?.close();
    await wa?.close();
  });

  /** Screenshot at both widths and an axe scan at both: no serious or critical violation. */
  async function capture(name: string) {
    for (const [label, vp] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      await page.setViewportSize(vp);
      await page.evaluate(() => window.scrollTo(0, 0));
      // Confirmations fade after 4 s; the pictures show the screen, not them.
      await page.locator('.toast').first().waitFor({ state: 'detached', timeout: 8_000 }).catch(() => {});
      await page.waitForTimeout(250);
      await page.screenshot({ path: path.join(SHOTS, `dashboard-${name}-${label}.png`) });
      expect(await overflowOf(page), `${name} (${label}) is wider than the screen`).toBeLessThanOrEqual(vp.width);
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

  it('serves the app with a strict CSP, no framing, nothing from outside', async () => {
    const res = await fetch(`${srv.url}/`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    expect(html).not.toMatch(/https?:\/\//); // no CDN
    const api404 = await fetch(`${srv.url}/v1/nope`, { headers: { accept: 'text/html' } });
    expect(api404.status).toBe(404);
    expect((await api404.json()).error).toBe('NOT_FOUND');
  });

  it('signs up (the first key shown once) and onboards with a checked CUIT → CVU and alias', async () => {
    await page.goto('/');
    await heading('Ingresar').waitFor();
    await capture('login');
    await page.getByRole('link', { name: 'Crear una cuenta' }).click();
    await heading('Crear cuenta').waitFor();
    await page.getByLabel('Tu nombre').fill('Ana Pérez');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Contraseña').fill(PASSWORD);
    await capture('signup');
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    const secret = page.getByTestId('secret-reveal');
    await expect.poll(() => secret.locator('output').textContent()).toMatch(/^svc_/);
    await page.getByRole('button', { name: 'Continuar' }).click();

    await heading('Abrí tu cuenta').waitFor();
    const cuit = page.getByLabel('CUIT o CUIL');
    await cuit.pressSequentially('20123456785');
    expect(await cuit.inputValue()).toBe('20-12345678-5');
    await page.getByText('El dígito verificador no coincide').waitFor();
    expect(await page.getByRole('button', { name: 'Abrir cuenta' }).isDisabled()).toBe(true);
    await cuit.fill('');
    await cuit.pressSequentially(randomCuit());
    await page.getByText('CUIT/CUIL válido.').waitFor();
    await page.getByLabel('Nombre o razón social').fill('Ana Pérez');
    await capture('onboarding');
    await page.getByRole('button', { name: 'Abrir cuenta' }).click();
    await heading('¡Tu cuenta está lista!').waitFor();
    const cvu = await page.locator('.copy-field', { hasText: 'CVU' }).locator('output').textContent();
    expect(cvu).toMatch(/^000\d{19}$/);
    await page.getByRole('button', { name: 'Copiar CVU' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(cvu);
    await page.getByRole('button', { name: 'Ir al inicio' }).click();
    await heading('Inicio').waitFor();
    ownerToken = await rest.ownerToken(email, PASSWORD);
  });

  it('simulates an incoming deposit in the sandbox panel and sees the balance', async () => {
    await nav('Sandbox');
    await heading('Sandbox').waitFor();
    const amount = page.getByLabel('Importe');
    await amount.fill('500.000');
    await page.getByLabel('De (nombre, opcional)').fill('Distribuidora Los Alerces S.A.');
    await capture('sandbox');
    await page.getByRole('button', { name: 'Acreditar' }).click();
    await toast('Ingresaron $ 500.000,00.').waitFor();
    // The form is fresh for the next deposit.
    expect(await amount.inputValue()).toBe('150.000,00');
    expect(await page.getByLabel('De (nombre, opcional)').inputValue()).toBe('');
    await nav('Inicio');
    await expect.poll(() => page.getByTestId('balance').textContent(), { timeout: 10_000 }).toBe('$ 500.000,00');
    await page.getByText('De Distribuidora Los Alerces S.A.').waitFor();
  });

  it('creates an agent key: the secret is shown once, with copy and a warning', async () => {
    await nav('Agentes');
    await heading('Agentes').waitFor();
    await page.getByLabel('Nombre del agente').fill('compras');
    await page.getByRole('button', { name: 'Crear clave' }).click();
    const reveal = page.getByTestId('secret-reveal');
    await reveal.getByText('es la única vez que se muestra').waitFor();
    agentKey = (await reveal.locator('output').textContent())!;
    expect(agentKey).toMatch(/^svc_[A-Za-z0-9_-]{32}$/);
    await reveal.getByRole('button', { name: 'Copiar Clave secreta' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(agentKey);
    await page.getByRole('button', { name: 'Ya la guardé' }).click();
    await expect.poll(() => page.content()).not.toContain(agentKey);
    await page.locator('.key', { hasText: 'compras' }).waitFor();
    await capture('agents');
    agentToken = await rest.agentToken(agentKey);
  });

  it('shows an agent’s payout above the threshold in the inbox without a reload; approving it pays it', async () => {
    await nav('Aprobaciones');
    await page.getByText('No hay solicitudes pendientes.').waitFor();
    await page.evaluate(() => ((window as unknown as { e2eMarker: number }).e2eMarker = 42));

    const res = await rest.withdraw(agentToken, { amount_ars: 75000, destination: EXTERNAL_CBU, note: 'Factura 0001-00012345' });
    expect(res.status).toBe(202);
    const card = page.locator(`[data-approval-id="${res.json.approval_id}"]`);
    await card.waitFor({ timeout: 10_000 });
    expect(await page.evaluate(() => (window as unknown as { e2eMarker?: number }).e2eMarker)).toBe(42); // no reload
    await expect.poll(() => card.textContent()).toContain('Pago de $ 75.000,00');
    const text = (await card.textContent())!;
    expect(text).toContain('28505909 40090418135201'); // the CBU in its two blocks
    expect(text).toContain('supera el monto que pide aprobación');
    expect(text).toContain('Agente «compras»');
    expect(text).toContain('Factura 0001-00012345');
    expect(text).toMatch(/Vence en [45]:\d\d/);
    await page.locator('.nav .count').getByText('1', { exact: true }).waitFor(); // the nav badge counts it
    expect(await page.locator('.nav a[href="/approvals"] .visually-hidden').textContent()).toBe(' (1 pendiente)'); // one, not "1 pendientes"
    await page.setViewportSize(PHONE);
    expect(await linesOf(card.locator('.account').first()), 'a CBU on a phone').toBeLessThanOrEqual(2);
    await page.setViewportSize(DESKTOP);
    await capture('approvals');

    await card.getByRole('button', { name: 'Aprobar' }).click();
    const dialog = page.getByRole('dialog', { name: '¿Aprobar este pago?' });
    await dialog.getByText('$ 75.000,00').waitFor();
    await dialog.getByRole('button', { name: 'Cancelar' }).click(); // the confirmation step really gates it
    expect((await rest.call('GET', `/v1/withdraws/${res.json.id}`, { token: ownerToken })).json.status).toBe('pending_approval');
    await card.getByRole('button', { name: 'Aprobar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sí, aprobar' }).click();
    await toast('Aprobado.').waitFor();
    approvedId = res.json.id as string;

    await page.locator('.approval', { hasText: '$ 75.000,00' }).getByRole('link', { name: 'Ver pago' }).first().click();
    await heading('Detalle del pago').waitFor();
    await expect.poll(() => page.getByTestId('payout-status').textContent(), { timeout: 15_000 }).toBe('Acreditado');
    const timeline = page.getByTestId('timeline');
    await timeline.locator('[data-step="confirmed"]').waitFor();
    for (const step of ['requested', 'approved', 'submitted', 'confirmed']) await expect.poll(() => timeline.locator(`[data-step="${step}"]`).count()).toBe(1);
    expect(await timeline.textContent()).toContain('Aprobado por vos desde el panel');
    await capture('payout-detail');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar PDF' }).click()]);
    expect(download.suggestedFilename()).toBe(`comprobante-${approvedId}.pdf`);
    const file = await download.path();
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');

    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Ver comprobante' }).click()]);
    const popupProblems: string[] = [];
    watchConsole(popup, popupProblems);
    await popup.getByText('Comprobante de transferencia').first().waitFor();
    expect(await popup.locator('body').evaluate((b) => getComputedStyle(b).fontFamily)).not.toBe(''); // styles applied
    await popup.close();
  });

  it('rejects a request after confirming', async () => {
    await nav('Aprobaciones');
    const res = await rest.withdraw(agentToken, { amount_ars: 60000, destination: OTHER_CBU });
    expect(res.status).toBe(202);
    const card = page.locator(`[data-approval-id="${res.json.approval_id}"]`);
    await card.waitFor({ timeout: 10_000 });
    await card.getByRole('button', { name: 'Rechazar' }).click();
    await page.getByRole('dialog', { name: '¿Rechazar este pago?' }).getByRole('button', { name: 'Sí, rechazar' }).click();
    await toast('Rechazado.').waitFor();
    await page.locator(`[data-approval-id="${res.json.approval_id}"][data-status="rejected"]`).waitFor({ timeout: 15_000 });
    expect((await rest.call('GET', `/v1/withdraws/${res.json.id}`, { token: ownerToken })).json.status).toBe('rejected');
  });

  it('edits limits and the whitelist; the next agent payout follows them; an agent’s proposal is a diff', async () => {
    // The agent asks (MCP) to raise the daily limit: the owner sees old → new next to the limits.
    const proposal = await rest.mcp(agentKey, 'propose_threshold_change', { daily_limit_ars: 800000 });
    expect(proposal.isError).toBeFalsy();
    await nav('Límites');
    await heading('Límites').waitFor();
    const change = page.locator('.approval', { hasText: 'Cambio de límites' });
    await change.waitFor({ timeout: 10_000 });
    const diffRow = change.locator('tr', { hasText: 'Límite diario' });
    expect(await diffRow.locator('del').textContent()).toBe('$\u00a0500.000,00');
    expect(await diffRow.locator('ins').textContent()).toBe('$\u00a0800.000,00');
    expect(await change.textContent()).toContain('Agente «compras»');
    const above = page.getByLabel('Pedir mi aprobación por encima de');
    expect(await above.inputValue()).toBe('50.000,00');
    await above.fill('1.000');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await toast('Límites guardados').waitFor();
    const held = await rest.withdraw(agentToken, { amount_ars: 5000, destination: OTHER_CBU });
    expect(held.status).toBe(202);
    expect(held.json.reasons).toEqual(['above_approval_threshold']);

    const add = page.getByLabel('Nuevo destino de confianza');
    await add.fill(OTHER_CBU.slice(0, 21) + '1'); // a wrong check digit
    await page.getByText('Los dígitos verificadores no coinciden').waitFor();
    await add.fill('no válido!');
    await page.getByText('Un alias solo lleva').waitFor();
    await add.fill(OTHER_CBU);
    await page.getByText('CBU válido.').waitFor();
    await page.getByRole('button', { name: 'Agregar' }).click();
    await page.locator('.chip', { hasText: OTHER_CBU }).waitFor();
    await capture('limits');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await toast('Límites guardados').waitFor();
    const thresholds = (await rest.call('GET', '/v1/thresholds', { token: ownerToken })).json;
    expect(thresholds).toMatchObject({ require_approval_above_ars: 1000, whitelist_cbus: [OTHER_CBU], per_tx_limit_ars: 100000 });
    const allowed = await rest.withdraw(agentToken, { amount_ars: 5000, destination: OTHER_CBU });
    expect(allowed.status).toBe(201); // whitelisted: no approval by amount
    const elsewhere = await rest.withdraw(agentToken, { amount_ars: 5000, destination: EXTERNAL_CBU });
    expect(elsewhere.status).toBe(202);
    expect(elsewhere.json.reasons).toEqual(expect.arrayContaining(['above_approval_threshold', 'destination_not_whitelisted']));

    await change.getByRole('button', { name: 'Aprobar' }).click();
    await page.getByRole('dialog', { name: '¿Aprobar este cambio de límites?' }).getByRole('button', { name: 'Sí, aprobar' }).click();
    await toast('Aprobado.').waitFor();
    await expect.poll(() => page.getByLabel('Límite diario').inputValue(), { timeout: 10_000 }).toBe('800.000,00');
    const after = (await rest.call('GET', '/v1/thresholds', { token: ownerToken })).json;
    expect(after).toMatchObject({ daily_limit_ars: 800000, require_approval_above_ars: 1000, whitelist_cbus: [OTHER_CBU] });

    // Decided, the proposal still says what it set: the limit it proposed, not a comparison with the limits now.
    await nav('Aprobaciones');
    const decided = page.locator('.approval', { hasText: 'Cambio de límites' }).filter({ hasText: 'Aprobada' }).first();
    await decided.waitFor({ timeout: 10_000 });
    const row = decided.locator('tr', { hasText: 'Límite diario' });
    expect(await row.locator('ins').textContent()).toBe('$\u00a0800.000,00');
    expect(await row.locator('del').count()).toBe(0);
    expect(await decided.textContent()).not.toContain('sin cambio');
    for (const [label, vp] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      await page.setViewportSize(vp);
      // Clear of the sticky header, which an element screenshot would otherwise catch over the card's top.
      await decided.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await decided.screenshot({ path: path.join(SHOTS, `dashboard-approvals-decided-proposal-${label}.png`) });
    }
    await page.setViewportSize(DESKTOP);
  });

  it('lists payouts with a status filter and pages', async () => {
    await nav('Pagos');
    await heading('Pagos').waitFor();
    await page.locator(`[data-payout-id="${approvedId}"]`).waitFor();
    await page.getByLabel('Estado').selectOption('rejected');
    await expect.poll(() => page.locator('.rows [data-payout-id]').count()).toBe(1);
    expect(await page.locator('.rows').textContent()).toContain('Rechazado');
    await page.getByLabel('Estado').selectOption('');
    await expect.poll(() => page.locator('.rows [data-payout-id]').count()).toBeGreaterThanOrEqual(5);
    await capture('payouts');
  });

  it('configures a webhook, sends a test event and sees the deliveries log', async () => {
    const receiver = await startReceiver();
    try {
      await nav('Webhook');
      await heading('Webhook').waitFor();
      await page.getByLabel('URL').fill(receiver.url);
      await page.getByLabel('Secreto para firmar').fill('corto');
      await page.getByText('al menos 16 caracteres').first().waitFor();
      await page.getByLabel('Secreto para firmar').fill('un-secreto-de-16-o-mas');
      await page.getByRole('button', { name: 'Guardar webhook' }).click();
      await toast('Webhook guardado.').waitFor();
      await page.getByRole('button', { name: 'Enviar evento de prueba' }).click();
      await toast('Evento de prueba enviado: Entregado.').waitFor();
      const row = page.locator('[data-event="webhook.test"]').first();
      await row.waitFor({ timeout: 10_000 });
      expect(await row.textContent()).toContain('Entregado');
      expect(await row.locator('td').nth(2).textContent()).toBe('1');
      expect(receiver.got.some((r) => r.headers['x-svc-event-type'] === 'webhook.test')).toBe(true);
      // Events from now on reach it too: a payout request is delivered and logged.
      await rest.withdraw(agentToken, { amount_ars: 100, destination: OTHER_CBU });
      await page.locator('[data-event="payout.requested"]').first().waitFor({ timeout: 15_000 });
      await row.getByRole('button', { name: /Reenviar/ }).click();
      await toast('Reenvío en cola.').waitFor();
      await capture('webhook');
    } finally {
      await receiver.close();
    }
  });

  it('links Telegram with a deep link and a QR code, and unlinks it', async () => {
    await nav('Canales');
    await heading('Canales de aprobación').waitFor();
    await page.getByRole('button', { name: 'Vincular Telegram' }).click();
    const link = page.getByRole('link', { name: 'Abrir Telegram' });
    await link.waitFor();
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^https:\/\/t\.me\/ars_wallet_test_bot\?start=/);
    await page.getByRole('img', { name: 'Código QR del enlace de Telegram' }).waitFor();
    await capture('telegram');
    // The owner presses Start: Telegram calls the service's webhook; the page notices by itself.
    const code = new URL(href).searchParams.get('start');
    const upd = await rest.call('POST', '/v1/channels/telegram/webhook', {
      headers: { 'x-telegram-bot-api-secret-token': TG_SECRET },
      body: { update_id: 1, message: { message_id: 1, chat: { id: 777, type: 'private' }, from: { id: 777, username: 'ana' }, text: `/start ${code}` } },
    });
    expect(upd.status).toBe(200);
    await page.getByText('Vinculado (@ana).').first().waitFor({ timeout: 10_000 });

    // The owner blocks the bot: the next approval's message is refused (403) and the screen says so.
    tg.setBlocked(777, true);
    const held = await rest.withdraw(agentToken, { amount_ars: 71000, destination: EXTERNAL_CBU, note: 'Bot bloqueado' });
    expect(held.status).toBe(202);
    await expect
      .poll(
        async () => {
          const { channels } = (await rest.call('GET', '/v1/approval-channels', { token: ownerToken })).json as { channels: { name: string; state: string | null }[] };
          return channels.find((c) => c.name === 'telegram')?.state;
        },
        { timeout: 10_000 },
      )
      .toBe('undeliverable');
    await nav('Inicio');
    await nav('Canales');
    const problem = page.getByTestId('telegram-problem');
    await problem.waitFor({ timeout: 15_000 });
    expect(await problem.textContent()).toContain('no puede entregar mensajes');
    expect(await problem.textContent()).toContain('403');
    await capture('telegram-problem');
    tg.setBlocked(777, false);
    expect((await rest.call('POST', `/v1/approvals/${held.json.approval_id}/reject`, { token: ownerToken })).status).toBe(200);

    await page.getByRole('button', { name: 'Desvincular' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Desvincular' }).click();
    await page.getByRole('button', { name: 'Vincular Telegram' }).waitFor();
  });

  it('links WhatsApp by sending the code from the phone; a payout’s Aprobar button pays it; the channel shows who decided', async () => {
    /** What Meta sends to the webhook, signed with the app secret. */
    const deliver = async (value: Record<string, unknown>) => {
      const { payload, signature } = signedDelivery(WA_SECRET, value);
      const res = await fetch(`${srv.url}/v1/channels/whatsapp/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, body: payload });
      expect(res.status).toBe(200);
    };
    const section = page.getByTestId('whatsapp');
    await section.getByRole('button', { name: 'Vincular WhatsApp' }).click();
    const open = section.getByRole('link', { name: 'Abrir WhatsApp' });
    await open.waitFor();
    const href = (await open.getAttribute('href'))!;
    expect(href).toMatch(/^https:\/\/wa\.me\/5491150000000\?text=Vincular%20[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    await page.getByRole('img', { name: 'Código QR del enlace de WhatsApp' }).waitFor();
    await capture('channels');
    // The owner sends the typed-in message from their phone.
    await deliver(textMessage(ANA_PHONE, 'wamid.E2E1', decodeURIComponent(new URL(href).searchParams.get('text')!)));
    await section.getByText('Vinculado al +54 •••• 1234.').waitFor({ timeout: 10_000 });
    expect(await section.textContent()).not.toContain(ANA_PHONE);

    const res = await rest.withdraw(agentToken, { amount_ars: 70000, destination: EXTERNAL_CBU, note: 'Por WhatsApp' });
    expect(res.status).toBe(202);
    await expect.poll(() => wa.templates().length, { timeout: 10_000 }).toBeGreaterThan(0);
    const template = wa.templates().at(-1)!.body as { to: string; template: { components: { type: string; parameters: { text?: string; payload?: string }[] }[] } };
    expect(template.to).toBe(ANA_PHONE);
    expect(template.template.components[0]!.parameters.map((p) => p.text)).toEqual([
      '$ 70.000,00',
      `Titular cuenta 5201 (CBU ${EXTERNAL_CBU})`,
      'supera el monto que pide aprobación; el destino no está en la lista de confianza',
      'el agente «compras»',
    ]);
    await deliver(buttonPress(ANA_PHONE, 'wamid.E2E2', `a:${res.json.approval_id}`));
    await expect.poll(async () => (await rest.call('GET', `/v1/withdraws/${res.json.id}`, { token: ownerToken })).json.status, { timeout: 15_000 }).toMatch(/submitted|confirmed/);
    expect(String((wa.texts().at(-1)!.body.text as { body: string }).body)).toContain('✅ Aprobado');
    await nav('Aprobaciones');
    const decided = page.locator(`[data-approval-id="${res.json.approval_id}"]`);
    await decided.waitFor({ timeout: 10_000 });
    await expect.poll(() => decided.textContent()).toContain('por WhatsApp');

    // The number stops receiving: the channels screen says so and offers to link again.
    await deliver(statusUpdate(wa.templates().at(-1)!.wamid!, ANA_PHONE, 'failed', 131026));
    await nav('Canales');
    const problem = page.getByTestId('whatsapp-problem');
    await problem.waitFor({ timeout: 10_000 });
    expect(await problem.textContent()).toContain('no puede entregar mensajes');
    expect(await problem.textContent()).toContain('131026');
    await capture('channels-problem');
    await deliver(textMessage(ANA_PHONE, 'wamid.E2E3', 'hola'));
  });

  it('shows the activity: who did what, with the key or the owner', async () => {
    await nav('Actividad');
    await heading('Actividad').waitFor();
    const requested = page.locator('[data-action="payout.requested"]').first();
    await requested.waitFor();
    expect(await requested.textContent()).toContain('Agente «compras»');
    expect(await requested.textContent()).toContain('Pidió un pago');
    // What each entry is about: the amount, the destination, the key that asked, the channel that decided.
    expect(await requested.textContent()).toMatch(/\$ [\d.]+,\d\d/);
    const approved = page.locator('[data-action="approval.approve"]', { hasText: 'por WhatsApp' }).first();
    const line = (await approved.textContent())!;
    expect(line).toContain('Vos (titular)');
    expect(line).toContain('$ 70.000,00');
    expect(line).toContain('28505909 40090418135201');
    expect(line).toContain('pedido por Agente «compras»');
    expect(await page.locator('[data-action="approval.approve"]', { hasText: '$ 75.000,00' }).first().textContent()).toContain('desde el panel');
    await capture('activity');
  });

  it('home: balance, CVU and alias, what waits, recent payouts and deposits', async () => {
    await rest.withdraw(agentToken, { amount_ars: 120000, destination: EXTERNAL_CBU, note: 'Proveedor' });
    await nav('Inicio');
    await heading('Inicio').waitFor();
    await page.getByText(/pagos? esperan? tu aprobación/).waitFor({ timeout: 10_000 });
    await expect.poll(() => page.locator('.rows [data-payout-id]').count()).toBe(5);
    await page.locator('[data-deposit-id]').first().waitFor();
    await capture('home');
  });

  it('switches to English and back', async () => {
    await page.getByLabel('Idioma').first().selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await page.getByRole('navigation').getByRole('link', { name: /Approvals/ }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByLabel('Language').first().selectOption('es');
    await heading('Inicio').waitFor();
  });

  it('revokes the key: the agent’s next call fails', async () => {
    await nav('Agentes');
    const item = page.locator('.key', { hasText: 'compras' });
    await item.getByRole('button', { name: 'Revocar compras' }).click();
    await page.getByRole('dialog', { name: '¿Revocar la clave «compras»?' }).getByRole('button', { name: 'Sí, revocar' }).click();
    await toast('Clave revocada.').waitFor();
    await item.waitFor({ state: 'detached' });
    const after = await rest.withdraw(agentToken, { amount_ars: 100, destination: OTHER_CBU });
    expect(after.status).toBe(401);
    expect((await rest.call('POST', '/v1/auth/token', { body: { api_key: agentKey } })).status).toBe(401);
  });

  it('an agent’s token gets nothing from the owner-only screens, and the page says so', async () => {
    const keyRes = await rest.call('POST', '/v1/api-keys', { token: ownerToken, body: { name: 'curioso' } });
    const token = await rest.agentToken(keyRes.json.key as string);
    const other = await ctx.browser()!.newContext({ baseURL: srv.url, viewport: DESKTOP });
    const p = await other.newPage();
    await p.goto('/login');
    await p.evaluate((tk) => sessionStorage.setItem('ars-wallet.session', JSON.stringify({ token: tk, expiresAt: Date.now() + 3600_000 })), token);
    for (const screen of ['/agents', '/limits', '/approvals', '/webhook', '/activity']) {
      await p.goto(screen);
      await p.getByText('Solo para el titular').first().waitFor();
      expect(await p.getByRole('button', { name: /Crear clave|Guardar|Aprobar|Revocar/ }).count()).toBe(0);
    }
    await other.close();
  });

  it('an expired or revoked session sends the owner back to log in, with a message', async () => {
    await page.evaluate(() => {
      const s = JSON.parse(sessionStorage.getItem('ars-wallet.session')!);
      sessionStorage.setItem('ars-wallet.session', JSON.stringify({ ...s, token: `${s.token.slice(0, -4)}AAAA` }));
    });
    await page.reload();
    await heading('Ingresar').waitFor({ timeout: 10_000 });
    await page.getByText('Tu sesión ya no es válida').waitFor();
    // never in localStorage
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toMatch(/eyJ/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Contraseña').fill(PASSWORD);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await heading('Agentes').waitFor(); // back where the session ended
    await page.getByRole('button', { name: 'Cerrar sesión' }).first().click();
    await page.getByText('Cerraste la sesión.').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('ars-wallet.session'))).toBeNull();
  });

  it('saw no script error and no CSP violation on any page', () => {
    expect(problems).toEqual([]);
  });
});

describe('an approval that nobody answers (short approval window)', () => {
  let srv: RunningServer;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;

  beforeAll(async () => {
    srv = await startServer({ APPROVAL_TTL_SECONDS: '12' });
    ({ browser, close: closeBrowser } = await launchBrowser());
  });
  afterAll(async () => {
    await closeBrowser?.();
    await srv?.stop();
  });

  it('counts down and shows it as expired; a payout the bank rejects shows why', async () => {
    const rest = new Rest(srv.url);
    const email = uniqueEmail('bruno');
    const { defaultKey } = await rest.newOwner({ email, password: PASSWORD, name: 'Bruno', legalName: 'Bruno Díaz', fund: 200_000 });
    const agent = await rest.agentToken(defaultKey);

    const ctx: BrowserContext = await newContext(browser, srv.url, DESKTOP);
    const page = await ctx.newPage();
    const problems: string[] = [];
    watchConsole(page, problems);
    await logIn(page, email, PASSWORD);
    await page.getByRole('navigation').getByRole('link', { name: /Aprobaciones/ }).click();

    const res = await rest.withdraw(agent, { amount_ars: 90000, destination: EXTERNAL_CBU });
    expect(res.status).toBe(202);
    const card = page.locator(`[data-approval-id="${res.json.approval_id}"]`);
    await card.first().waitFor({ timeout: 10_000 });
    expect(await card.first().textContent()).toMatch(/Vence en 0:[01]\d/);
    const expired = page.locator(`[data-approval-id="${res.json.approval_id}"][data-status="expired"]`).first();
    await expired.waitFor({ timeout: 25_000 });
    expect(await expired.textContent()).toContain('Vencida');
    expect(await expired.getByRole('button', { name: 'Aprobar' }).count()).toBe(0);
    await page.goto(`/payouts/${res.json.id}`);
    await expect.poll(() => page.getByTestId('payout-status').textContent(), { timeout: 15_000 }).toBe('Vencido');
    expect(await page.getByTestId('timeline').textContent()).toContain('Venció sin respuesta');

    // A payout the bank rejects: its page says why, in plain words.
    const failed = await rest.withdraw(agent, { amount_ars: 1500, destination: 'sandbox.reject', destination_kind: 'ALIAS' });
    expect(failed.status).toBe(502);
    await page.goto(`/payouts/${failed.json.payout_id}`);
    await expect.poll(() => page.getByTestId('payout-status').textContent(), { timeout: 10_000 }).toBe('Fallido');
    await page.getByText('El banco de destino rechazó la transferencia.').first().waitFor();
    // It did not happen, and the receipt section does not pretend it may still be credited.
    expect(await page.locator('main').textContent()).not.toContain('todavía no está acreditado');
    await page.getByText('Este pago no se hizo').waitFor();
    expect(await page.getByTestId('timeline').locator('[data-step="failed"]').count()).toBe(1);
    expect(problems).toEqual([]);
    await ctx.close();
  });
});
