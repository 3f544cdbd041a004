import { createHash, randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rest, uniqueEmail } from './api.js';
import { DESKTOP, launchBrowser, logIn, newContext, watchConsole } from './browser.js';
import { startServer, type RunningServer } from './server.js';

const PASSWORD = 'una clave bien larga';
const REDIRECT = 'http://127.0.0.1:33419/callback';

/**
 * Markup that would run if any screen put it into the page as HTML: an attribute break-out, an inline handler and an
 * inline script, each setting `window.__xss`. The dashboard must show it as text, nothing more.
 */
const hostile = (tag: string) => `${tag}"'><img src=x onerror="window.__xss='${tag}'"><script>window.__xss='${tag}'</script>`;

/**
 * What agents, an outside sender, the bank and an OAuth app control and the owner reads in the dashboard (D33, D39):
 * a payout's note, a deposit's sender name, the recipient's holder name the bank resolves, an OAuth app's name and
 * URIs (and the agent it becomes). Each screen and the receipt shows them as text: no element is injected, no
 * script runs, the page reports no blocked inline code.
 */
describe('hostile text in the dashboard (Chromium against the built server)', () => {
  let srv: RunningServer;
  let rest: Rest;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let ctx: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const dialogs: string[] = [];
  const email = uniqueEmail('xss');
  let ownerToken = '';
  let heldId = '';
  let paidId = '';
  let callbackUrl: URL | null = null;

  const NOTE = hostile('note');
  const SENDER = hostile('sender');
  const HOLDER = hostile('holder');
  const KEY = hostile('key');
  const APP = hostile('app');

  beforeAll(async () => {
    srv = await startServer({ APPROVAL_CHANNELS: 'dashboard' });
    rest = new Rest(srv.url);
    // Money from outside, its sender named by whoever sent it.
    const fund = { amount_ars: 500_000, from_name: SENDER, from_cbu: '2850590940090418135201' };
    ({ token: ownerToken } = await rest.newOwner({ email, password: PASSWORD, name: 'Ana', legalName: 'Ana Pérez', fund }));

    // The recipient: another sandbox holder whose legal name the bank reports back as the recipient's name.
    const { cvu: bobCvu } = await rest.newOwner({ email: uniqueEmail('bob'), password: PASSWORD, name: 'Bob', legalName: HOLDER });

    const agent = await rest.agentToken((await rest.newKey(ownerToken, KEY)).key);
    const held = await rest.withdraw(agent, { amount_ars: 60_000, destination: bobCvu, note: NOTE });
    expect(held.status, JSON.stringify(held.json)).toBe(202);
    heldId = held.json.id as string;
    const paid = await rest.withdraw(agent, { amount_ars: 1_000, destination: bobCvu, note: NOTE });
    expect(paid.status, JSON.stringify(paid.json)).toBe(201);
    paidId = paid.json.id as string;

    ({ browser, close: closeBrowser } = await launchBrowser());
    ctx = await newContext(browser, srv.url, DESKTOP);
    await ctx.route(`${REDIRECT}**`, (route) => {
      callbackUrl = new URL(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>ok</title>' });
    });
    ctx.on('page', (p) => {
      watchConsole(p, problems);
      p.on('dialog', (d) => (dialogs.push(d.message()), void d.dismiss()));
    });
    page = await ctx.newPage();
    await logIn(page, email, PASSWORD);
  });

  afterAll(async () => {
    await closeBrowser?.();
    await srv?.stop();
  });

  /** Nothing ran and nothing was injected in `p`, and no page reported a blocked script. */
  async function clean(p: Page, where: string) {
    expect(await p.evaluate(() => (window as unknown as { __xss?: string }).__xss ?? null), where).toBeNull();
    expect(await p.locator('img[src="x"]').count(), `${where}: injected <img>`).toBe(0);
    expect(await p.evaluate(() => [...document.scripts].filter((s) => !s.src).length), `${where}: inline <script>`).toBe(0);
    expect(dialogs, where).toEqual([]);
    expect(problems, where).toEqual([]);
  }

  /** The hostile text shows up on the screen as the characters it is. */
  const shown = (p: Page, text: string) => p.getByText(text, { exact: false }).first().waitFor({ timeout: 15_000 });

  it('home, approvals, payouts and a payout show notes, sender and holder names as text', async () => {
    await page.goto('/');
    await shown(page, 'sender"\'><img');
    await clean(page, 'home');

    await page.goto('/approvals');
    await shown(page, 'note"\'><img');
    await clean(page, 'approvals');

    await page.goto('/payouts');
    await page.locator(`a[href="/payouts/${heldId}"]`).first().waitFor();
    await clean(page, 'payouts');

    await page.goto(`/payouts/${paidId}`);
    await shown(page, 'note"\'><img');
    await shown(page, 'holder"\'><img');
    await clean(page, 'payout detail');
  });

  it('the receipt opened from the dashboard shows them as text', async () => {
    await page.goto(`/payouts/${paidId}`);
    const [tab] = await Promise.all([ctx.waitForEvent('page'), page.getByRole('button', { name: 'Ver comprobante' }).click()]);
    await tab.waitForURL(/^blob:/);
    await tab.waitForLoadState('load');
    await shown(tab, 'holder"\'><img');
    await shown(tab, 'note"\'><img');
    await clean(tab, 'receipt');
    // And if markup ever got in, it would not run: the blob document keeps the dashboard's policy (no inline code).
    const ran = await tab.evaluate(async () => {
      document.body.insertAdjacentHTML('beforeend', '<img src="data:," onload="window.__probe=1" onerror="window.__probe=1">');
      await new Promise((r) => setTimeout(r, 300));
      return (window as unknown as { __probe?: number }).__probe ?? null;
    });
    expect(ran).toBeNull();
    problems.splice(0, problems.length, ...problems.filter((p) => !/inline event handler/i.test(p)));
    await tab.close();
  });

  it("agents and activity show the key's name as text", async () => {
    await page.goto('/agents');
    await shown(page, 'key"\'><img');
    await clean(page, 'agents');
    await page.goto('/activity');
    await shown(page, 'key"\'><img');
    await clean(page, 'activity');
  });

  it("an OAuth app's name and URIs, on the consent page and as the agent it becomes, stay text", async () => {
    const reg = await rest.call('POST', '/oauth/register', {
      body: {
        client_name: APP,
        client_uri: 'https://app.example.com/"><img src=x onerror="window.__xss=1">',
        logo_uri: 'https://app.example.com/logo.png"><img src=x onerror="window.__xss=1">',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        scope: 'payouts:read wallet:read',
      },
    });
    expect(reg.status, JSON.stringify(reg.json)).toBe(201);
    const verifier = randomBytes(32).toString('base64url');
    const auth = new URL(`${srv.url}/oauth/auth`);
    for (const [k, v] of Object.entries({
      client_id: reg.json.client_id as string,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'payouts:read wallet:read',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'st',
      resource: `${srv.url}/mcp`,
    }))
      auth.searchParams.set(k, v);
    await page.goto(auth.href);
    await page.waitForURL(/\/connect\//);
    await shown(page, 'app"\'><img');
    await clean(page, 'consent');
    await page.getByRole('button', { name: 'Aprobar' }).click();
    await expect.poll(() => callbackUrl?.searchParams.get('code') ?? null, { timeout: 15_000 }).not.toBeNull();
    // The browser has left for the app's redirect URI; come back to the dashboard once it has.
    await expect.poll(() => page.url(), { timeout: 15_000 }).toMatch(/^http:\/\/127\.0\.0\.1:33419\/callback\?/);
    await page.waitForLoadState('load');
    await page.goto('/agents');
    await shown(page, 'app"\'><img');
    await clean(page, 'agents with the OAuth app');
  });
});
