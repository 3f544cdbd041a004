import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_CBU, Rest, uniqueEmail } from './api.js';
import { DESKTOP, loggedIn, overflowOf, PHONE, watchConsole } from './browser.js';
import { ROOT, startServer, type RunningServer } from './server.js';

const SHOTS = path.join(ROOT, 'docs', 'screenshots');
const PASSWORD = 'una clave bien larga';

/**
 * What a new owner noticed on a phone and a desktop, each fixed and asserted here: plurals, nothing wider than
 * the phone, a reversal that is no income, the stop switch that says what it does, dates as es-AR writes them
 * whatever the browser's language, and an idle dashboard that costs (almost) no requests.
 */
describe('a dashboard that feels finished', () => {
  let srv: RunningServer;
  let rest: Rest;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let problems: string[] = [];
  const email = uniqueEmail('carla');
  let owner = '';
  let agent = '';
  let agentKey = '';

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // A short heartbeat, so the idle window below sees the stream alive many times over.
    srv = await startServer({ LIVE_HEARTBEAT_MS: '1000', LIVE_POLL_MS: '1000' });
    rest = new Rest(srv.url);
    ({ token: owner, defaultKey: agentKey } = await rest.newOwner({ email, password: PASSWORD, name: 'Carla', legalName: 'Carla Gómez', cuitPrefix: '27', fund: 900_000 }));
    agent = await rest.agentToken(agentKey);
    ({ browser, page, problems, close: closeBrowser } = await loggedIn(srv.url, email, PASSWORD));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await srv?.stop();
  });

  const waiting = () => page.locator('.waiting-count').allTextContents();

  it('counts in words through Intl.PluralRules, in Spanish and English', async () => {
    const first = await rest.withdraw(agent, { amount_ars: 60000, destination: EXTERNAL_CBU });
    expect(first.status).toBe(202);
    await expect.poll(waiting, { timeout: 10_000 }).toEqual(['1 pago espera tu aprobación']);
    await page.getByLabel('Idioma').first().selectOption('en');
    await expect.poll(waiting).toEqual(['1 payout waits for your approval']);
    await rest.withdraw(agent, { amount_ars: 61000, destination: EXTERNAL_CBU });
    await expect.poll(waiting, { timeout: 10_000 }).toEqual(['2 payouts wait for your approval']);
    await page.getByLabel('Language').first().selectOption('es');
    await expect.poll(waiting).toEqual(['2 pagos esperan tu aprobación']);
    expect(await page.locator('.nav a[href="/approvals"] .visually-hidden').textContent()).toBe(' (2 pendientes)');
  });

  it('fits a 390 px phone on /approvals and /limits with a proposal pending', async () => {
    expect((await rest.mcp(agentKey, 'propose_threshold_change', { daily_limit_ars: 800000, whitelist_cbus: [EXTERNAL_CBU] })).isError).toBeFalsy();
    await page.setViewportSize(PHONE);
    for (const screen of ['/approvals', '/limits']) {
      await page.goto(screen);
      await page.locator('.approval', { hasText: 'Cambio de límites' }).first().waitFor({ timeout: 10_000 });
      expect(await overflowOf(page), `${screen} on a phone`).toBeLessThanOrEqual(PHONE.width);
    }
    await page.goto('/approvals');
    await page.locator('.approval', { hasText: 'Cambio de límites' }).first().waitFor({ timeout: 10_000 });
    await page.screenshot({ path: path.join(SHOTS, 'dashboard-approvals-proposal-phone.png') });
    await page.setViewportSize(DESKTOP);
    await page.screenshot({ path: path.join(SHOTS, 'dashboard-approvals-proposal-desktop.png') });
  });

  it('keeps a failed payout’s reversal off the home screen’s income', async () => {
    const failed = await rest.withdraw(agent, { amount_ars: 2500, destination: 'sandbox.fail', destination_kind: 'ALIAS' });
    expect([201, 202]).toContain(failed.status);
    const id = (failed.json.id ?? failed.json.payout_id) as string;
    await expect
      .poll(async () => (await rest.call('GET', `/v1/withdraws/${id}`, { token: owner })).json.status, { timeout: 20_000 })
      .toBe('failed');
    // The bank did send the money back: it is a REVERSED credit in the history …
    const legs = (await rest.call('GET', '/v1/deposits', { token: owner })).json.deposits as { status: string; direction: string; amount: string }[];
    expect(legs.some((d) => d.direction === 'credit' && d.status === 'REVERSED')).toBe(true);
    // … but not income: home lists the one real deposit only.
    await page.goto('/');
    await page.locator('[data-deposit-id]').first().waitFor();
    const incomes = await page.locator('[data-deposit-id]').allTextContents();
    expect(incomes).toHaveLength(1);
    expect(incomes[0]).toContain('$ 900.000,00');
  });

  it('labels the stop switch with what pressing it does now', async () => {
    await page.goto('/');
    const sw = page.getByRole('switch');
    await expect.poll(() => sw.textContent()).toBe('Pausar todos los pagos');
    expect(await sw.getAttribute('aria-checked')).toBe('false');
    await sw.click();
    await expect.poll(() => sw.textContent()).toBe('Reanudar los pagos');
    expect(await sw.getAttribute('aria-checked')).toBe('true');
    await sw.click();
    await expect.poll(() => sw.textContent()).toBe('Pausar todos los pagos');
  });

  it('writes "Vence el" as es-AR does, also in a browser set to English (US)', async () => {
    const us = await browser.newContext({ baseURL: srv.url, viewport: DESKTOP, locale: 'en-US', timezoneId: 'America/New_York' });
    const p = await us.newPage();
    watchConsole(p, problems);
    await p.goto('/login');
    await p.evaluate((tk) => sessionStorage.setItem('ars-wallet.session', JSON.stringify({ token: tk, expiresAt: Date.now() + 3600_000 })), owner);
    await p.goto('/agents');
    const key = p.locator('.key', { hasText: 'default' });
    await key.locator('summary').first().click();
    const field = key.getByLabel('Vence el (opcional)');
    expect(await field.getAttribute('placeholder')).toBe('dd/mm/aaaa');
    await field.fill('12/31/2027'); // how a US browser would write it: refused
    await key.getByText('Escribí una fecha como 31/12/2026.').waitFor();
    expect(await key.getByRole('button', { name: 'Guardar' }).isDisabled()).toBe(true);
    await field.fill('31/12/2027');
    await key.getByRole('button', { name: 'Guardar' }).click();
    await expect
      .poll(async () => ((await rest.call('GET', '/v1/api-keys', { token: owner })).json.api_keys as { name: string; expires_at: string | null }[]).find((k) => k.name === 'default')?.expires_at)
      .toBe(new Date('2027-12-31T23:59:59-03:00').toISOString());
    await p.reload();
    await p.locator('.key', { hasText: 'default' }).locator('summary').first().click();
    expect(await p.locator('.key', { hasText: 'default' }).getByLabel('Vence el (opcional)').inputValue()).toBe('31/12/2027');
    await us.close();
  });

  it('an idle dashboard sends no requests: one stream stays open and a change still arrives by itself', async () => {
    await page.goto('/approvals');
    await page.locator('.approval').first().waitFor();
    // Let the first round of queries finish (2 s without a request), then count what the idle tab asks.
    let lastAt = Date.now();
    const settle = () => (lastAt = Date.now());
    page.on('request', settle);
    await expect.poll(() => Date.now() - lastAt, { timeout: 20_000, interval: 250 }).toBeGreaterThan(2_000);
    page.off('request', settle);
    const requests: string[] = [];
    const onRequest = (r: { url(): string }) => requests.push(new URL(r.url()).pathname);
    page.on('request', onRequest);
    const WINDOW_MS = 20_000; // many heartbeats (LIVE_HEARTBEAT_MS=1000) and slow polls (LIVE_POLL_MS=1000) pass
    await page.waitForTimeout(WINDOW_MS);
    page.off('request', onRequest);
    // The stream is opened once per session and kept; the old dashboard sent 17 a minute from this screen.
    expect(requests, `requests of an idle tab in ${WINDOW_MS / 1000} s`).toEqual([]);

    // Still live: a new request appears without any polling, with one refetch of what changed.
    page.on('request', onRequest);
    const res = await rest.withdraw(agent, { amount_ars: 62000, destination: EXTERNAL_CBU });
    await page.locator(`[data-approval-id="${res.json.approval_id}"]`).waitFor({ timeout: 10_000 });
    page.off('request', onRequest);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.length).toBeLessThanOrEqual(6);
    expect(requests.every((r) => r.startsWith('/v1/'))).toBe(true);
  });

  it('saw no script error and no CSP violation', () => {
    expect(problems).toEqual([]);
  });
});
