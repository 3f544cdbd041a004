import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_CBU } from './api.js';
import { startBindOwner, type BindOwner } from './bind-owner.js';
import { loggedIn, PHONE } from './browser.js';

/**
 * D36's `in_flight` on the home screen: the payout that was already on its way to the bank when the owner paused is
 * listed, one payout row like any other, and its status follows what happens to it afterwards (sent, credited) rather than staying as it was when
 * the pause answered. The bank here is the BIND simulator, which holds the submission without answering for a while.
 */
describe('a payout in flight when the owner pauses', () => {
  let bank: BindOwner;
  let page: Page;
  let problems: string[] = [];
  let closeBrowser: () => Promise<void>;

  beforeAll(async () => {
    bank = await startBindOwner({ tag: 'vuelo', name: 'Vera', fundArs: '50000.00', env: { BIND_TIMEOUT_MS: '8000' } });
    ({ page, problems, close: closeBrowser } = await loggedIn(bank.srv.url, bank.email, bank.password, PHONE));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await bank?.close();
  });

  it('lists it after pausing, with the status it has now', async () => {
    // The bank holds the next transfer without answering: the payout's submission has started and not ended.
    const held = await fetch(`${bank.sim.url}/__sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ op: 'transfer', mode: 'timeout', count: 1 }),
    });
    expect(held.status).toBe(200);
    const asked = bank.rest.withdraw(bank.agent, { amount_ars: 1234.56, destination: EXTERNAL_CBU });
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
      .poll(async () => (await bank.rest.call('GET', `/v1/withdraws/${id}`, { token: bank.owner })).json.status, { timeout: 20_000 })
      .toBe('confirmed');
    await expect.poll(() => flying.first().locator('.badge').textContent(), { timeout: 15_000 }).toBe('Acreditado');
    expect(problems).toEqual([]);
  }, 120_000);
});
