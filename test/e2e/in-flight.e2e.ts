import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBindSimulator, type BindSimulator } from '../../src/modules/rail/bind/sim/bind-simulator.js';
import { EXTERNAL_CBU, randomCuit, Rest, uniqueEmail } from './api.js';
import { loggedIn, PHONE } from './browser.js';
import { startServer, type RunningServer } from './server.js';

const PASSWORD = 'una clave bien larga';
const WEBHOOK_TOKEN = 'e2e-in-flight-webhook-token-0123456789';

/**
 * D36's `in_flight` on the home screen: the payout that was already on its way to the bank when the owner paused is
 * listed, one payout row like any other, and its status follows what happens to it afterwards (sent, credited) rather than staying as it was when
 * the pause answered. The bank here is the BIND simulator, which holds the submission without answering for a while.
 */
describe('a payout in flight when the owner pauses', () => {
  let sim: BindSimulator;
  let srv: RunningServer;
  let rest: Rest;
  let page: Page;
  let problems: string[] = [];
  let closeBrowser: () => Promise<void>;
  const email = uniqueEmail('vuelo');
  let owner = '';
  let agent = '';

  beforeAll(async () => {
    sim = await startBindSimulator({ settleMs: 200 });
    srv = await startServer({
      BANK_RAIL: 'bind',
      BIND_API_URL: sim.url,
      BIND_TOKEN_URL: sim.tokenUrl,
      BIND_CLIENT_ID: 'sim-client',
      BIND_CLIENT_SECRET: 'sim-secret',
      BIND_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
      BIND_TIMEOUT_MS: '8000',
    });
    sim.setWebhookUrl(`${srv.url}/v1/rails/bind/webhook/${WEBHOOK_TOKEN}`);
    rest = new Rest(srv.url);
    expect((await rest.call('POST', '/v1/users', { body: { email, password: PASSWORD, name: 'Vera' } })).status).toBe(201);
    owner = await rest.ownerToken(email, PASSWORD);
    const onboarded = await rest.call('POST', '/v1/onboarding', { token: owner, body: { legal_id: randomCuit('27'), legal_name: 'Vera Paz' } });
    expect(onboarded.status).toBe(200);
    const credited = await fetch(`${sim.url}/__sim/incoming`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cvu: onboarded.json.cvu, amount: '50000.00' }),
    });
    expect(credited.status).toBe(200);
    const key = await rest.call('POST', '/v1/api-keys', { token: owner, body: { name: 'compras' } });
    agent = await rest.agentToken(key.json.key as string);
    ({ page, problems, close: closeBrowser } = await loggedIn(srv.url, email, PASSWORD, PHONE));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await srv?.stop();
    await sim?.close();
  });

  it('lists it after pausing, with the status it has now', async () => {
    // The bank holds the next transfer without answering: the payout's submission has started and not ended.
    const held = await fetch(`${sim.url}/__sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ op: 'transfer', mode: 'timeout', count: 1 }),
    });
    expect(held.status).toBe(200);
    const asked = rest.withdraw(agent, { amount_ars: 1234.56, destination: EXTERNAL_CBU });
    await new Promise((r) => setTimeout(r, 1_500));

    await page.goto('/');
    const sw = page.getByRole('switch');
    await expect.poll(() => sw.textContent(), { timeout: 15_000 }).toBe('Pausar todos los pagos');
    await sw.click();
    await expect.poll(() => sw.textContent(), { timeout: 15_000 }).toBe('Reanudar los pagos');
    const flying = page.getByTestId('in-flight').locator('li');
    await expect.poll(() => flying.count(), { timeout: 15_000 }).toBe(1);
    expect(await flying.first().innerText()).toContain('$ 1.234,56');
    // On a phone the row reads top to bottom like every payout row: amount and status, then account, then date and agent.
    const top = (await flying.first().locator('.row-top').boundingBox())!;
    const lines = await flying.first().locator('.row-sub').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line.top, 'a detail line below the amount').toBeGreaterThanOrEqual(top.y + top.height - 1);
      expect(line.width, 'a detail line as wide as the row').toBeGreaterThan(top.width * 0.8);
    }

    // The bank answers after all, and books it: the list says so without a reload.
    const answered = await asked;
    expect(answered.status, JSON.stringify(answered.json)).toBe(201);
    const id = answered.json.id as string;
    await expect
      .poll(async () => (await rest.call('GET', `/v1/withdraws/${id}`, { token: owner })).json.status, { timeout: 20_000 })
      .toBe('confirmed');
    await expect.poll(() => flying.first().locator('.badge').textContent(), { timeout: 15_000 }).toBe('Acreditado');
    expect(problems).toEqual([]);
  }, 120_000);
});
