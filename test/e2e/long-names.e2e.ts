import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_CBU, OTHER_CBU, Rest, uniqueEmail } from './api.js';
import { DESKTOP, loggedIn, overflowOf, PHONE } from './browser.js';
import { startServer, type RunningServer } from './server.js';

const PASSWORD = 'una clave bien larga';
/** A key name near the longest the API takes (100 characters), in plain words: an owner may well name an agent so. */
const LONG_NAME = 'Agente de compras del local de la calle Corrientes que paga a los proveedores de verduras y frutas.';

/**
 * A long agent name where the owner reads it: the activity log's "who" badge wraps inside its column instead of
 * running past the phone's edge or over the action written beside it on a desktop. A name the service would refuse
 * for its invisible characters is said so in the field, not with the service's English message.
 */
describe('long agent names in the dashboard', () => {
  let srv: RunningServer;
  const email = uniqueEmail('long');

  beforeAll(async () => {
    srv = await startServer({ APPROVAL_CHANNELS: 'dashboard' });
    const rest = new Rest(srv.url);
    const fund = { amount_ars: 10_000, from_name: 'Juan', from_cbu: EXTERNAL_CBU };
    const { token: owner } = await rest.newOwner({ email, password: PASSWORD, name: 'Ana', legalName: 'Ana Pérez', fund });
    const agent = await rest.agentToken((await rest.newKey(owner, LONG_NAME)).key);
    expect((await rest.withdraw(agent, { amount_ars: 1_000, destination: OTHER_CBU })).status).toBe(201);
  });
  afterAll(async () => {
    await srv?.stop();
  });

  it('the activity log keeps the agent badge within the phone and beside, not over, the action', async () => {
    const { page, problems, close } = await loggedIn(srv.url, email, PASSWORD, PHONE);
    try {
      await page.goto('/activity');
      const row = page.locator('li.act-agent').first();
      await row.waitFor();
      await expect.poll(() => row.innerText()).toContain(LONG_NAME);
      expect(await overflowOf(page), 'the activity log on a phone').toBeLessThanOrEqual(PHONE.width);

      await page.setViewportSize(DESKTOP);
      const badge = (await row.locator('.act-who .badge').boundingBox())!;
      const what = (await row.locator('.act-what').boundingBox())!;
      expect(badge.x + badge.width, 'the badge ends before the action begins').toBeLessThanOrEqual(what.x);
      const details = (await row.locator('.act-details').boundingBox())!;
      // Where the action's words end (its box stretches to the row's height).
      const whatText = await row.locator('.act-what').evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return range.getBoundingClientRect().bottom;
      });
      expect(details.y - whatText, 'the details follow the action, with no gap the size of the badge').toBeLessThan(10);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a pasted key name with invisible characters is refused in the field, in words, before it is sent', async () => {
    const { page, problems, close } = await loggedIn(srv.url, email, PASSWORD, PHONE);
    try {
      await page.goto('/agents');
      const name = page.getByLabel('Nombre del agente');
      // A zero-width space, as text copied from a chat or a web page may carry.
      await name.fill('facturas\u200b');
      await page.getByText('caracteres invisibles').waitFor({ timeout: 5_000 });
      expect(await page.getByRole('button', { name: 'Crear clave' }).isDisabled()).toBe(true);
      await name.fill('facturas');
      expect(await page.getByText('caracteres invisibles').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Crear clave' }).isDisabled()).toBe(false);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
