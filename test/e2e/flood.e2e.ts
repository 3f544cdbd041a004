import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_CBU, Rest, uniqueEmail } from './api.js';
import { DESKTOP, loggedIn, PHONE } from './browser.js';
import { ROOT, startServer, type RunningServer } from './server.js';

const SHOTS = path.join(ROOT, 'docs', 'screenshots');
const PASSWORD = 'una clave bien larga';

/**
 * The owner's control under an agent flood (D35, D36): the contract's 60 requests a minute per user, an agent
 * spending far more from this process, and the owner pausing and revoking from the dashboard meanwhile. A
 * dashboard that is itself refused says so in words and keeps the stop within reach.
 */
describe('the emergency stop under an agent flood', () => {
  let srv: RunningServer;
  let rest: Rest;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let problems: string[] = [];
  const email = uniqueEmail('dora');
  let owner = '';
  let agentKey = '';
  let agent = '';

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // The real budgets: 60 a minute for the agents; the owner's own (D35) small here so part one can spend it.
    srv = await startServer({ RATE_LIMIT_PER_MINUTE: '60', OWNER_RATE_LIMIT_PER_MINUTE: '120', SANDBOX_CONFIRM_DELAY_MS: '60000' });
    rest = new Rest(srv.url);
    ({ token: owner } = await rest.newOwner({ email, password: PASSWORD, name: 'Dora', legalName: 'Dora Ruiz', cuitPrefix: '27', fund: 500_000 }));
    agentKey = (await rest.newKey(owner, 'bucle')).key;
    agent = await rest.agentToken(agentKey);
    ({ page, problems, close: closeBrowser } = await loggedIn(srv.url, email, PASSWORD, PHONE));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await srv?.stop();
  });

  /** Sends `n` calls with `token` as fast as they answer; returns how many were refused with 429. */
  async function hammer(token: string, n: number): Promise<number> {
    let limited = 0;
    for (let i = 0; i < n; i++) if ((await rest.call('GET', '/v1/balance', { token })).status === 429) limited++;
    return limited;
  }

  it('a dashboard that is refused says so in words, keeps the emergency stop, and recovers by itself', async () => {
    // Spend the owner's own budget from outside the page: the page's next reads are refused too.
    expect(await hammer(owner, 130)).toBeGreaterThan(0);
    await page.reload();
    const limited = page.locator('[data-error="RATE_LIMIT_EXCEEDED"]').first();
    await limited.waitFor({ timeout: 15_000 });
    expect(await limited.textContent()).toMatch(/demasiadas solicitudes seguidas.*Reintentamos solos en \d+ s/i);
    await expect.poll(() => page.getByText('Cargando…').count(), { timeout: 15_000 }).toBe(0); // no card spins
    // The stop never disappears: unread, it still offers to pause.
    const stop = page.getByTestId('emergency-stop');
    await stop.waitFor();
    expect(await stop.getByRole('button', { name: /Pausar todos los pagos/ }).count()).toBe(1);
    await page.screenshot({ path: path.join(SHOTS, 'dashboard-rate-limited-phone.png') });
    await page.setViewportSize(DESKTOP);
    await page.screenshot({ path: path.join(SHOTS, 'dashboard-rate-limited-desktop.png') });
    await page.setViewportSize(PHONE);
  });

  it('the owner pauses and revokes from the dashboard while the agent floods; a screenshot shows the stop working', async () => {
    // Part one spent the owner's budget; wait for the window to pass (the page retries by itself).
    await page.getByTestId('balance').waitFor({ timeout: 75_000 });
    const held = await rest.withdraw(agent, { amount_ars: 60000, destination: EXTERNAL_CBU });
    expect(held.status).toBe(202);

    // The agent loops: 80+ calls a minute from this process, for as long as the owner acts.
    let flooding = true;
    let sent = 0;
    let refused = 0;
    const flood = (async () => {
      while (flooding) {
        const r = await rest.call('GET', '/v1/balance', { token: agent });
        sent++;
        if (r.status === 429) refused++;
        await new Promise((res) => setTimeout(res, 250));
      }
    })();
    await expect.poll(() => refused, { timeout: 60_000 }).toBeGreaterThan(0);

    await page.goto('/');
    const sw = page.getByRole('switch');
    await expect.poll(() => sw.textContent(), { timeout: 15_000 }).toBe('Pausar todos los pagos');
    await sw.click();
    await expect.poll(() => sw.textContent(), { timeout: 15_000 }).toBe('Reanudar los pagos');
    expect((await rest.call('GET', '/v1/payouts/pause', { token: owner })).json.paused).toBe(true);

    await page.getByRole('button', { name: 'Menú' }).click();
    await page.getByRole('navigation').getByRole('link', { name: 'Agentes' }).click();
    await page.locator('.key', { hasText: 'bucle' }).getByRole('button', { name: 'Revocar bucle' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sí, revocar' }).click();
    await page.locator('.toasts').getByText('Clave revocada.').waitFor({ timeout: 15_000 });
    const afterRevoke = await rest.call('GET', '/v1/balance', { token: agent });
    expect(afterRevoke.status === 401 || afterRevoke.status === 429).toBe(true);
    flooding = false;
    await flood;
    expect(refused).toBeGreaterThan(0);
    expect(sent).toBeGreaterThan(60);

    await page.getByRole('button', { name: 'Menú' }).click();
    await page.getByRole('navigation').getByRole('link', { name: 'Inicio' }).click();
    await expect.poll(() => page.getByRole('switch').textContent(), { timeout: 15_000 }).toBe('Reanudar los pagos');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, 'dashboard-flood-stopped-phone.png') });
    await page.setViewportSize(DESKTOP);
    await page.screenshot({ path: path.join(SHOTS, 'dashboard-flood-stopped-desktop.png') });
  }, 240_000);

  it('saw no script error and no CSP violation', () => {
    expect(problems).toEqual([]);
  });
});
