import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_CBU, Rest, uniqueEmail } from './api.js';
import { loggedIn, PHONE } from './browser.js';
import { startReceiver } from './receiver.js';
import { startServer, type RunningServer } from './server.js';

const PASSWORD = 'una clave bien larga';

/**
 * A double click (an impatient thumb, a mouse that bounces) sends an owner's action once: one new key, whose
 * secret is the one shown (a second key would live on with a secret nobody saw); one approval; one test event,
 * one resend, one sandbox deposit.
 */
describe('double clicks in the dashboard', () => {
  let srv: RunningServer;
  let rest: Rest;
  let page: Page;
  let problems: string[] = [];
  let closeBrowser: () => Promise<void>;
  const email = uniqueEmail('doble');
  let owner = '';
  let agent = '';
  const posts: string[] = [];

  beforeAll(async () => {
    srv = await startServer({ APPROVAL_CHANNELS: 'dashboard' });
    rest = new Rest(srv.url);
    ({ token: owner } = await rest.newOwner({ email, password: PASSWORD, name: 'Dani', legalName: 'Dani Ruiz', fund: 300_000 }));
    agent = await rest.agentToken((await rest.newKey(owner, 'compras')).key);
    ({ page, problems, close: closeBrowser } = await loggedIn(srv.url, email, PASSWORD, PHONE));
    page.on('request', (r) => r.method() !== 'GET' && posts.push(`${r.method()} ${new URL(r.url()).pathname}`));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await srv?.stop();
  });

  it('creates one key on a double click of "Crear clave"', async () => {
    await page.goto('/agents');
    await page.getByLabel('Nombre del agente').fill('facturas');
    posts.length = 0;
    await page.getByRole('button', { name: 'Crear clave' }).dblclick();
    await page.getByTestId('secret-reveal').waitFor();
    await page.waitForTimeout(1_000);
    expect(posts.filter((p) => p === 'POST /v1/api-keys')).toHaveLength(1);
    const keys = (await rest.call('GET', '/v1/api-keys', { token: owner })).json.api_keys as { name: string }[];
    expect(keys.filter((k) => k.name === 'facturas')).toHaveLength(1);
  });

  it('approves once on a double click of "Sí, aprobar"', async () => {
    const held = await rest.withdraw(agent, { amount_ars: 60_000, destination: OTHER_CBU });
    expect(held.status).toBe(202);
    await page.goto('/approvals');
    await page.getByRole('button', { name: 'Aprobar' }).first().click();
    posts.length = 0;
    await page.getByRole('dialog').getByRole('button', { name: 'Sí, aprobar' }).dblclick();
    await page.getByText('No hay solicitudes pendientes.').waitFor({ timeout: 15_000 });
    await page.waitForTimeout(500);
    expect(posts.filter((p) => p.endsWith('/approve'))).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it('sends one test event, and queues one resend, on a double click', async () => {
    const receiver = await startReceiver();
    try {
      expect((await rest.call('PUT', '/v1/webhook', { token: owner, body: { url: receiver.url, secret: 'un-secreto-de-16-o-mas' } })).status).toBe(200);
      await page.goto('/webhook');
      posts.length = 0;
      await page.getByRole('button', { name: 'Enviar evento de prueba' }).dblclick();
      await page.getByText('Evento de prueba enviado: Entregado.').waitFor();
      await page.waitForTimeout(1_000);
      expect(posts.filter((p) => p === 'POST /v1/webhook/test')).toHaveLength(1);
      expect(receiver.got.filter((r) => r.headers['x-svc-event-type'] === 'webhook.test')).toHaveLength(1);

      const row = page.locator('[data-event="webhook.test"]').first();
      posts.length = 0;
      await row.getByRole('button', { name: /Reenviar/ }).dblclick();
      await page.getByText('Reenvío en cola.').waitFor();
      await page.waitForTimeout(1_000);
      expect(posts.filter((p) => p.endsWith('/redeliver'))).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('credits one sandbox deposit on a double click of "Acreditar"', async () => {
    const before = Number((await rest.call('GET', '/v1/balance', { token: owner })).json.available);
    await page.goto('/sandbox');
    await page.getByLabel('Importe').fill('1.234');
    posts.length = 0;
    await page.getByRole('button', { name: 'Acreditar' }).dblclick();
    await page.getByText('Ingresaron $ 1.234,00.').waitFor();
    await page.waitForTimeout(1_000);
    expect(posts.filter((p) => p === 'POST /v1/sandbox/deposits')).toHaveLength(1);
    expect(Number((await rest.call('GET', '/v1/balance', { token: owner })).json.available)).toBe(before + 1_234);
    // Its activity entry says how much came in.
    await page.goto('/activity');
    const entry = page.locator('li', { hasText: 'Simuló un ingreso (sandbox)' }).first();
    await entry.waitFor();
    expect(await entry.locator('.act-details').textContent()).toContain('$ 1.234,00');
    expect(problems).toEqual([]);
  });
});
