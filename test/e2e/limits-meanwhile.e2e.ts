import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rest, uniqueEmail } from './api.js';
import { DESKTOP, loggedIn, PHONE } from './browser.js';
import { startServer, type RunningServer } from './server.js';

const PASSWORD = 'una clave bien larga';

/**
 * The limits form while the stored limits change under it (the owner approves an agent's proposal on Telegram, or
 * puts new limits from another device): saving must not put back, unseen, the values from before the change. The fields the
 * owner did not touch follow the stored ones; the ones they changed stay as typed; a notice says so.
 */
describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
])('limits changed while the owner edits them (%s)', (_size, viewport) => {
  let srv: RunningServer;
  let rest: Rest;
  let page: Page;
  let problems: string[] = [];
  let closeBrowser: () => Promise<void>;
  const email = uniqueEmail('limites');
  let owner = '';
  let agentKey = '';

  beforeAll(async () => {
    srv = await startServer({ APPROVAL_CHANNELS: 'dashboard' });
    rest = new Rest(srv.url);
    ({ token: owner } = await rest.newOwner({ email, password: PASSWORD, name: 'Sol', legalName: 'Sol Ibarra' }));
    agentKey = (await rest.newKey(owner, 'compras')).key;
    ({ page, problems, close: closeBrowser } = await loggedIn(srv.url, email, PASSWORD, viewport));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await srv?.stop();
  });

  it('keeps what the owner typed, takes the approved change for the rest, and saves both', async () => {
    const before = (await rest.call('GET', '/v1/thresholds', { token: owner })).json as Record<string, unknown>;
    await page.goto('/limits');
    const above = page.getByLabel('Pedir mi aprobación por encima de');
    const daily = page.getByLabel('Límite diario');
    await above.waitFor();
    const dailyBefore = await daily.inputValue();
    await above.fill('1.000');

    // Meanwhile the agent asks for a higher daily limit and the owner approves it elsewhere.
    const proposal = await rest.mcp(agentKey, 'propose_threshold_change', { daily_limit_ars: 800_000 });
    expect(proposal.isError).toBeFalsy();
    await page.locator('.approval', { hasText: 'Cambio de límites' }).waitFor({ timeout: 10_000 });
    const pending = (await rest.call('GET', '/v1/approvals?status=pending', { token: owner })).json.approvals as { id: string; kind: string }[];
    const id = pending.find((a) => a.kind === 'threshold_change')!.id;
    expect((await rest.call('POST', `/v1/approvals/${id}/approve`, { token: owner })).status).toBe(200);

    await page.getByText('Los límites guardados cambiaron mientras editabas').waitFor({ timeout: 15_000 });
    expect(await daily.inputValue()).not.toBe(dailyBefore);
    expect(await daily.inputValue()).toBe('800.000,00');
    expect(await above.inputValue()).toMatch(/^1\.000/);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Límites guardados').first().waitFor();
    expect((await rest.call('GET', '/v1/thresholds', { token: owner })).json).toEqual({ ...before, daily_limit_ars: 800_000, require_approval_above_ars: 1_000 });
    await expect(page.getByText('Los límites guardados cambiaron mientras editabas').count()).resolves.toBe(0);
    expect(problems).toEqual([]);
  });

  it('learns at once of limits put from another device, with no approval in between', async () => {
    const before = (await rest.call('GET', '/v1/thresholds', { token: owner })).json as Record<string, unknown>;
    const above = page.getByLabel('Pedir mi aprobación por encima de');
    const monthly = page.getByLabel('Límite mensual');
    await above.fill('2.000');

    // The live stream carries the limits themselves: no focus or reload needed for the form to see this.
    expect((await rest.call('PUT', '/v1/thresholds', { token: owner, body: { ...before, monthly_limit_ars: 3_000_000 } })).status).toBe(204);
    await page.getByText('Los límites guardados cambiaron mientras editabas').waitFor({ timeout: 5_000 });
    expect(await monthly.inputValue()).toBe('3.000.000,00');
    expect(await above.inputValue()).toMatch(/^2\.000/);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Límites guardados').first().waitFor();
    expect((await rest.call('GET', '/v1/thresholds', { token: owner })).json).toEqual({
      ...before,
      monthly_limit_ars: 3_000_000,
      require_approval_above_ars: 2_000,
    });
    expect(problems).toEqual([]);
  });

  it("an agent's proposal whose limit the owner then changed says it can no longer be approved, and offers only Rechazar", async () => {
    const before = (await rest.call('GET', '/v1/thresholds', { token: owner })).json as Record<string, unknown>;
    const proposal = await rest.mcp(agentKey, 'propose_threshold_change', { per_tx_limit_ars: 70_000 });
    expect(proposal.isError).toBeFalsy();
    const card = page.locator('.approval', { hasText: 'Cambio de límites' });
    await card.getByRole('button', { name: 'Aprobar' }).waitFor({ timeout: 10_000 });
    // The owner sets the per-payout limit from another device: the card is fetched again and says so.
    expect((await rest.call('PUT', '/v1/thresholds', { token: owner, body: { ...before, per_tx_limit_ars: 5_000 } })).status).toBe(204);
    await card.getByText('Cambiaste estos límites después de la propuesta').waitFor({ timeout: 5_000 });
    await expect(card.getByRole('button', { name: 'Aprobar' }).count()).resolves.toBe(0);
    await card.getByRole('button', { name: 'Rechazar' }).click();
    await page.getByRole('dialog', { name: '¿Rechazar este cambio de límites?' }).getByRole('button', { name: 'Sí, rechazar' }).click();
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    expect((await rest.call('GET', '/v1/thresholds', { token: owner })).json).toMatchObject({ per_tx_limit_ars: 5_000 });
    expect(problems).toEqual([]);
  });
});
