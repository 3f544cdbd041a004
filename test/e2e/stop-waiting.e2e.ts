import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BindSimulator } from '../../src/modules/rail/bind/sim/bind-simulator.js';
import { EXTERNAL_CBU, OTHER_CBU, type Rest } from './api.js';
import { startBindOwner, type BindOwner } from './bind-owner.js';
import { DESKTOP, loggedIn, overflowOf, PHONE } from './browser.js';
import { ROOT } from './server.js';

const SHOTS = path.join(ROOT, 'docs', 'screenshots');

async function until(what: string, probe: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * D36 in the dashboard: payouts left approved while the owner's stop is on wait, are shown as such, and can be
 * canceled; resuming sends the rest. The bank here is the BIND simulator, whose transfer endpoint turns the calls
 * away (HTTP 429, Retry-After 1 s): nothing reached the bank, so the follow-up asks by reference after the wait,
 * finds the bank never got them, and, the stop being on by then, parks them instead of sending them again. (A 500
 * would keep them in flight: the bank may still act on a request it answered with an error.)
 */
describe('payouts held by the emergency stop', () => {
  let bank: BindOwner;
  let sim: BindSimulator;
  let rest: Rest;
  let page: Page;
  let problems: string[] = [];
  let closeBrowser: () => Promise<void>;
  let owner = '';
  let agent = '';

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    bank = await startBindOwner({ tag: 'elsa', name: 'Elsa', fundArs: '50000.00', env: { PAYOUT_SUBMISSION_GRACE_MS: '500' } });
    ({ sim, rest, owner, agent } = bank);
    ({ page, problems, close: closeBrowser } = await loggedIn(bank.srv.url, bank.email, bank.password, PHONE));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await bank?.close();
  });

  it('shows what waits for resume, cancels one after a confirmation, and sends the other on resume', async () => {
    // Two payouts whose submission the bank turns away (not booked): the service answers them as approved. The bank
    // keeps turning them away until the test says otherwise, so the follow-up's resubmissions before the owner's
    // pause (a slow browser) are turned away too rather than sent.
    const bankFails = (count: number) =>
      fetch(`${sim.url}/__sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ op: 'transfer', mode: '429', count, retry_after: 1 }),
      });
    await bankFails(1_000);
    const one = await rest.withdraw(agent, { amount_ars: 1200, destination: EXTERNAL_CBU });
    const two = await rest.withdraw(agent, { amount_ars: 3400.5, destination: OTHER_CBU });
    expect([one.status, one.json.status, two.status, two.json.status]).toEqual([201, 'approved', 201, 'approved']);

    // The owner pauses from the dashboard.
    await page.goto('/');
    const sw = page.getByRole('switch');
    await expect.poll(() => sw.textContent(), { timeout: 15_000 }).toBe('Pausar todos los pagos');
    await sw.click();
    await expect.poll(() => sw.textContent(), { timeout: 15_000 }).toBe('Reanudar los pagos');

    // The follow-up finds the bank never got them, and parks them: they wait for resume.
    const waitingBoth = async () => {
      const list = (await rest.call('GET', '/v1/withdraws', { token: owner })).json.withdraws as { id: string; waiting_for_resume: boolean }[];
      return [one.json.id, two.json.id].every((id) => list.find((w) => w.id === id)?.waiting_for_resume === true);
    };
    await until('both payouts to wait for resume', waitingBoth);
    await page.reload();
    const waiting = page.getByTestId('waiting-for-resume');
    await waiting.waitFor({ timeout: 15_000 });
    await expect.poll(() => waiting.locator('li').count(), { timeout: 15_000 }).toBe(2);
    expect(await overflowOf(page), 'the home screen on a phone').toBeLessThanOrEqual(PHONE.width);
    await page.getByTestId('emergency-stop').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, 'dashboard-stop-waiting-phone.png') });
    await page.setViewportSize(DESKTOP);
    await page.screenshot({ path: path.join(SHOTS, 'dashboard-stop-waiting-desktop.png') });
    await page.setViewportSize(PHONE);

    // Cancel the first, after confirming.
    await waiting.locator(`li[data-payout-id="${one.json.id}"]`).getByRole('button', { name: 'Cancelar pago' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sí, cancelar el pago' }).click();
    await expect.poll(() => waiting.locator('li').count(), { timeout: 15_000 }).toBe(1);
    const canceled = (await rest.call('GET', `/v1/withdraws/${one.json.id}`, { token: owner })).json;
    expect(canceled).toMatchObject({ status: 'failed', failure_reason: 'canceled_by_owner', waiting_for_resume: false });

    // Resume: the bank answers again, and the other goes to it, once.
    await bankFails(0);
    await sw.click();
    await expect.poll(() => sw.textContent(), { timeout: 15_000 }).toBe('Pausar todos los pagos');
    await until('the waiting payout to reach the bank', async () => {
      const p = (await rest.call('GET', `/v1/withdraws/${two.json.id}`, { token: owner })).json;
      return p.status === 'submitted' || p.status === 'confirmed';
    });
    // BIND writes amounts as JSON numbers: read the digits as written. One transfer reached the bank, the one resumed.
    const booked = await (await fetch(`${sim.url}/__sim/transfers`)).text();
    expect([...booked.matchAll(/"amount":\s*([\d.]+)/g)].map((m) => m[1])).toEqual(['3400.50']);
  }, 180_000);

  it('saw no script error and no CSP violation', () => {
    expect(problems).toEqual([]);
  });
});
