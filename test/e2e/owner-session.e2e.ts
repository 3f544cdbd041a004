import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rest, uniqueEmail } from './api.js';
import { DESKTOP, launchBrowser, logIn, newContext, watchConsole } from './browser.js';
import { startServer, type RunningServer } from './server.js';

const PASSWORD = 'una clave bien larga';

/**
 * The owner's session in the browser (D33): a bearer token in the tab's sessionStorage only (no cookie, nothing in
 * localStorage); logging out and the token's expiry each end it there and then: the token is gone, the live stream
 * closed, the owner's data off the page and out of the back button's reach.
 */
describe("the owner's session in the browser", () => {
  let srv: RunningServer;
  let rest: Rest;
  let launched: Awaited<ReturnType<typeof launchBrowser>>;
  const problems: string[] = [];
  const email = uniqueEmail('ses');
  let cvu = '';

  beforeAll(async () => {
    // A 12-second session, so that its expiry can be watched.
    srv = await startServer({ JWT_EXPIRY_HOURS: String(12 / 3600) });
    rest = new Rest(srv.url);
    ({ cvu } = await rest.newOwner({ email, password: PASSWORD, name: 'Ana', legalName: 'Ana Pérez' }));
    launched = await launchBrowser();
  });
  afterAll(async () => {
    await launched?.close();
    await srv?.stop();
  });

  /** `skewSeconds`: the browser believes the token lives that much longer than the server does (a slow clock, latency). */
  async function openSession(skewSeconds = 0) {
    const ctx = await newContext(launched.browser, srv.url, DESKTOP);
    const page = await ctx.newPage();
    if (skewSeconds) {
      await page.route('**/v1/login', async (route) => {
        const res = await route.fetch();
        const body = (await res.json()) as { token: string; expires_in: number };
        await route.fulfill({ response: res, json: { ...body, expires_in: body.expires_in + skewSeconds } });
      });
    }
    watchConsole(page, problems);
    const streams: Request[] = [];
    page.on('request', (r) => r.url().endsWith('/v1/events/stream') && streams.push(r));
    await logIn(page, email, PASSWORD);
    await page.getByText(cvu).first().waitFor();
    await expect.poll(() => streams.length).toBeGreaterThan(0);
    return { ctx, page, streams };
  }

  const storage = (page: Page) =>
    page.evaluate(() => ({ local: { ...localStorage }, session: Object.keys(sessionStorage), text: document.body.innerText }));

  /** The last stream request the page opened has ended (the browser aborted it or the server closed it). */
  const ended = (page: Page, r: Request) =>
    new Promise<void>((resolve) => {
      void r.response().then(async (res) => {
        await res?.finished().catch(() => null);
        resolve();
      });
      page.on('requestfailed', (f) => f === r && resolve());
    });

  it('lives in the tab only: no cookie, nothing in localStorage', async () => {
    const { ctx, page } = await openSession();
    expect(await ctx.cookies()).toEqual([]);
    const s = await storage(page);
    expect(s.local).toEqual({});
    expect(s.session).toEqual(['ars-wallet.session']);
    await ctx.close();
  });

  it('logging out removes the token, closes the live stream and leaves no data behind the back button', async () => {
    const { ctx, page, streams } = await openSession();
    const stream = streams.at(-1)!;
    const closed = ended(page, stream);
    await page.getByRole('button', { name: 'Cerrar sesión' }).first().click();
    await page.getByText('Cerraste la sesión.').waitFor();
    await closed;
    const s = await storage(page);
    expect(s.session).toEqual([]);
    expect(s.text).not.toContain(cvu);
    // Back (to wherever the history leads: the login page or the blank tab before it) shows none of it.
    await page.goBack();
    await page.waitForLoadState('load');
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => document.body?.innerText ?? '')).not.toContain(cvu);
    // Opening the dashboard again in this tab finds nothing to resume.
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Ingresar' }).waitFor();
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('the session ends at its expiry: login screen, token gone, stream closed, nothing reopened', async () => {
    // The server ends the stream when the token expires; the browser, a few seconds behind, tries to reopen it and is
    // told TOKEN_EXPIRED: that is still an expiry, said as one.
    const { ctx, page, streams } = await openSession(4);
    const closed = ended(page, streams.at(-1)!);
    await page.getByText('Tu sesión venció. Ingresá de nuevo para seguir.').waitFor({ timeout: 20_000 });
    await closed;
    const s = await storage(page);
    expect(s.session).toEqual([]);
    expect(s.text).not.toContain(cvu);
    const count = streams.length;
    await page.waitForTimeout(3_000);
    expect(streams.length).toBe(count);
    await ctx.close();
  });
});
