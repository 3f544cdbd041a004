import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_CBU } from './api.js';
import { startBindOwner, type BindOwner } from './bind-owner.js';
import { loggedIn, PHONE } from './browser.js';

/**
 * The bank not answering while the owner approves: approving re-checks the destination with the bank, which answers
 * 503 RAIL_UNAVAILABLE ("nothing was decided"). The owner reads that in words, in the dashboard's language, not the
 * service's English message behind an HTTP status; the request stays pending and can be approved once the bank is back.
 */
describe('the bank not answering, in the dashboard', () => {
  let bank: BindOwner;
  let page: Page;
  let problems: string[] = [];
  let closeBrowser: () => Promise<void>;

  const lookupFails = (count: number) =>
    fetch(`${bank.sim.url}/__sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ op: 'lookup', mode: '500', count }) });

  beforeAll(async () => {
    bank = await startBindOwner({ tag: 'down', name: 'Dora', fundArs: '200000.00', env: { APPROVAL_CHANNELS: 'dashboard' } });
    const held = await bank.rest.withdraw(bank.agent, { amount_ars: 60_000, destination: EXTERNAL_CBU });
    expect(held.status, JSON.stringify(held.json)).toBe(202);
    ({ page, problems, close: closeBrowser } = await loggedIn(bank.srv.url, bank.email, bank.password, PHONE));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await bank?.close();
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
