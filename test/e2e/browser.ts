import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's Chromium driven by playwright-core (no browser download). Missing Chromium is a failure, never a
 * skip: .ci/run installs it.
 */
export async function launchBrowser(): Promise<{ browser: Browser; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: install Debian's chromium (apt-get install chromium); .ci/run does`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // No --user-data-dir: playwright-core starts Chromium on a new empty profile of its own and removes it after.
    ],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
    },
  };
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

export async function newContext(browser: Browser, baseURL: string, viewport = DESKTOP): Promise<BrowserContext> {
  const ctx = await browser.newContext({
    baseURL,
    viewport,
    locale: 'es-AR',
    timezoneId: 'America/Argentina/Buenos_Aires',
    acceptDownloads: true,
    deviceScaleFactor: 1,
  });
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  return ctx;
}

/** Fails the test on any script error or CSP violation the page reports. */
export function watchConsole(page: Page, problems: string[]): void {
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(`csp: ${m.text()}`);
  });
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * axe-core from its npm package, evaluated in the page through the DevTools protocol (the page's CSP forbids
 * inline scripts, rightly, and this needs none). Returns the serious and critical violations (WCAG 2.x A/AA).
 */
export async function axeSerious(page: Page): Promise<AxeViolation[]> {
  const has = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  if (!has) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    const res = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }, resultTypes: ['violations'] });
    return res.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** How wide the page really is: nothing may stick out of a phone's 390 px (scrollWidth counts what overflows). */
export async function overflowOf(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
}

/** How many lines an inline element's text takes (its line boxes). */
export async function linesOf(locator: import('playwright-core').Locator): Promise<number> {
  return locator.evaluate((el) => {
    const rects = [...el.getClientRects()];
    return new Set(rects.map((r) => Math.round(r.top))).size;
  });
}

/** A browser on the dashboard, logged in as `email` (the login form, as the owner does), at `viewport`. */
export async function loggedIn(baseURL: string, email: string, password: string, viewport = DESKTOP) {
  const { browser, close } = await launchBrowser();
  const ctx = await newContext(browser, baseURL, viewport);
  const page = await ctx.newPage();
  const problems: string[] = [];
  watchConsole(page, problems);
  await logIn(page, email, password);
  return { browser, ctx, page, problems, close };
}

/** The login form, filled and sent as the owner does; resolves on the home screen. */
export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await page.getByRole('heading', { level: 1, name: 'Inicio' }).waitFor();
}
