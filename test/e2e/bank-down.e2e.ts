import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBindSimulator, type BindSimulator } from '../../src/modules/rail/bind/sim/bind-simulator.js';
import { EXTERNAL_CBU, randomCuit, Rest, uniqueEmail } from './api.js';
import { loggedIn, PHONE } from './browser.js';
import { startServer, type RunningServer } from './server.js';

const PASSWORD = 'una clave bien larga';
const WEBHOOK_TOKEN = 'e2e-bank-down-webhook-token-0123456789';

/**
 * The bank not answering while the owner approves: approving re-checks the destination with the bank, which answers
 * 503 RAIL_UNAVAILABLE ("nothing was decided"). The owner reads that in words, in the dashboard's language, not the
 * service's English message behind an HTTP status; the request stays pending and can be approved once the bank is back.
 */
describe('the bank not answering, in the dashboard', () => {
  let sim: BindSimulator;
  let srv: RunningServer;
  let page: Page;
  let problems: string[] = [];
  let closeBrowser: () => Promise<void>;
  const email = uniqueEmail('down');

  const lookupFails = (count: number) =>
    fetch(`${sim.url}/__sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ op: 'lookup', mode: '500', count }) });

  beforeAll(async () => {
    sim = await startBindSimulator({ settleMs: 200 });
    srv = await startServer({
      APPROVAL_CHANNELS: 'dashboard',
      BANK_RAIL: 'bind',
      BIND_API_URL: sim.url,
      BIND_TOKEN_URL: sim.tokenUrl,
      BIND_CLIENT_ID: 'sim-client',
      BIND_CLIENT_SECRET: 'sim-secret',
      BIND_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
      BIND_TIMEOUT_MS: '3000',
    });
    sim.setWebhookUrl(`${srv.url}/v1/rails/bind/webhook/${WEBHOOK_TOKEN}`);
    const rest = new Rest(srv.url);
    expect((await rest.call('POST', '/v1/users', { body: { email, password: PASSWORD, name: 'Dora' } })).status).toBe(201);
    const owner = await rest.ownerToken(email, PASSWORD);
    const onboarded = await rest.call('POST', '/v1/onboarding', { token: owner, body: { legal_id: randomCuit('27'), legal_name: 'Dora Paz' } });
    expect(onboarded.status).toBe(200);
    const credited = await fetch(`${sim.url}/__sim/incoming`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cvu: onboarded.json.cvu, amount: '200000.00' }),
    });
    expect(credited.status).toBe(200);
    const key = await rest.call('POST', '/v1/api-keys', { token: owner, body: { name: 'compras' } });
    const agent = await rest.agentToken(key.json.key as string);
    const held = await rest.withdraw(agent, { amount_ars: 60_000, destination: EXTERNAL_CBU });
    expect(held.status, JSON.stringify(held.json)).toBe(202);
    ({ page, problems, close: closeBrowser } = await loggedIn(srv.url, email, PASSWORD, PHONE));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await srv?.stop();
    await sim?.close();
  });

  it('says in words that the bank is not answering, and approves once it is back', async () => {
    await page.goto('/approvals');
    const card = page.locator('.approval-list').first().locator('article').first();
    await card.getByRole('button', { name: 'Aprobar' }).waitFor();

    await lookupFails(1_000);
    await card.getByRole('button', { name: 'Aprobar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sí, aprobar' }).click();
    const alert = card.getByRole('alert');
    await alert.waitFor();
    expect(await alert.getAttribute('data-error')).toBe('RAIL_UNAVAILABLE');
    const said = await alert.innerText();
    expect(said).toContain('El banco no responde');
    expect(said).not.toMatch(/503|bank rail/);
    await card.getByRole('button', { name: 'Aprobar' }).waitFor(); // still pending

    await lookupFails(0);
    await card.getByRole('button', { name: 'Aprobar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sí, aprobar' }).click();
    await page.getByText('No hay solicitudes pendientes.').waitFor({ timeout: 15_000 });
    expect(problems).toEqual([]);
  }, 90_000);
});
