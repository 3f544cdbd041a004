import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { auth, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_CBU, Rest, uniqueEmail } from './api.js';
import { axeSerious, DESKTOP, launchBrowser, newContext, PHONE, watchConsole } from './browser.js';
import { ROOT, startServer, type RunningServer } from './server.js';

const SHOTS = path.join(ROOT, 'docs', 'screenshots');
const PASSWORD = 'una clave bien larga';
/** The host's loopback redirect (RFC 8252); the browser's visit there is caught, as the host's listener would. */
const REDIRECT = 'http://127.0.0.1:33418/callback';

/** What an MCP host keeps: its registration, its PKCE verifier, its tokens, and where it sends the person. */
class HostAuth implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Asistente de compras',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text: string }[] };

/**
 * D44 as a host lives it: the official MCP SDK client meets a 401 at /mcp, discovers the authorization server,
 * registers itself and sends the owner to the consent page, where the owner (logging in first) approves with a
 * daily limit; the host gets its tokens, lists the tools and pays, attributed to the new agent; refreshes; and
 * once the owner revokes the agent in the dashboard its next call is 401.
 */
describe('MCP authorization by OAuth (SDK client, consent in Chromium)', () => {
  let srv: RunningServer;
  let rest: Rest;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let ctx: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const email = uniqueEmail('oauth');
  let ownerToken = '';
  const host = new HostAuth();
  let callbackUrl: URL | null = null;
  let mcp: Client;
  let agentId = '';

  const connect = async () => {
    const client = new Client({ name: 'asistente', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { authProvider: host }));
    return client;
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    srv = await startServer();
    rest = new Rest(srv.url);
    ({ token: ownerToken } = await rest.newOwner({ email, password: PASSWORD, name: 'Olga', legalName: 'Olga Ruiz', fund: 100_000 }));
    ({ browser, close: closeBrowser } = await launchBrowser());
    ctx = await newContext(browser, srv.url, DESKTOP);
    await ctx.route(`${REDIRECT}**`, (route) => {
      callbackUrl = new URL(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Listo</title><p>Podés volver a la app.</p>' });
    });
    page = await ctx.newPage();
    watchConsole(page, problems);
  });

  afterAll(async () => {
    await mcp?.close();
    await closeBrowser?.();
    await srv?.stop();
  });

  it('discovers, registers and sends the owner to consent; the owner logs in and approves with a daily limit', async () => {
    // The first connection meets the 401 and starts the authorization.
    await expect(connect()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(host.info?.client_id).toBeTruthy();
    const authUrl = host.authorizationUrl!;
    expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${srv.url}/oauth/auth`);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('resource')).toBe(`${srv.url}/mcp`);

    await page.goto(authUrl.href);
    // Not logged in: the dashboard asks first, then shows the request.
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Contraseña').fill(PASSWORD);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.getByRole('heading', { name: '«Asistente de compras» pide conectarse' }).waitFor();
    expect(await page.getByTestId('redirect-host').textContent()).toBe('127.0.0.1:33418');
    await page.getByLabel('Límite diario').fill('1.000');
    await page.screenshot({ path: path.join(SHOTS, 'oauth-consent-desktop.png'), fullPage: true });
    expect(await axeSerious(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: path.join(SHOTS, 'oauth-consent-phone.png'), fullPage: true });
    expect(await axeSerious(page)).toEqual([]);
    await page.setViewportSize(DESKTOP);
    await page.getByRole('button', { name: 'Aprobar' }).click();
    await expect.poll(() => callbackUrl?.searchParams.get('code') ?? null, { timeout: 15_000 }).not.toBeNull();
    expect(callbackUrl!.searchParams.get('state')).toBe(authUrl.searchParams.get('state'));
  });

  it('gets its tokens, lists the tools and pays as the new agent, within its daily limit', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { authProvider: host });
    await transport.finishAuth(callbackUrl!.searchParams.get('code')!);
    expect(host.saved?.access_token).toBeTruthy();
    expect(host.saved?.refresh_token).toBeTruthy();
    mcp = await connect();
    const { tools } = await mcp.listTools();
    expect(tools.map((x) => x.name)).toContain('request_payout');

    const keys = await rest.call('GET', '/v1/api-keys', { token: ownerToken });
    const agent = (keys.json.api_keys as { id: string; name: string; kind: string; daily_limit_ars: number }[]).find((k) => k.kind === 'oauth')!;
    expect(agent).toMatchObject({ name: 'Asistente de compras', daily_limit_ars: 1000 });
    agentId = agent.id;

    const paid = (await mcp.callTool({ name: 'request_payout', arguments: { amount_ars: 600, destination: EXTERNAL_CBU, idempotency_key: 'oauth-e2e-1' } })) as ToolResult;
    expect(paid.isError).toBeFalsy();
    const payout = await rest.call('GET', `/v1/withdraws/${paid.structuredContent!.id}`, { token: ownerToken });
    expect(payout.json).toMatchObject({ api_key_id: agentId, api_key_name: 'Asistente de compras' });
    const over = (await mcp.callTool({ name: 'request_payout', arguments: { amount_ars: 600, destination: EXTERNAL_CBU, idempotency_key: 'oauth-e2e-2' } })) as ToolResult;
    expect(over.structuredContent).toMatchObject({ decision: 'require_approval', reasons: ['key_daily_limit'] });

    // The agents screen shows it, connected by OAuth, with its last use.
    await page.goto('/agents');
    const item = page.locator(`[data-key-id="${agentId}"]`);
    await item.getByText('conectado por OAuth').waitFor();
    expect(await item.getByText('Nunca').count()).toBe(0);
    await page.screenshot({ path: path.join(SHOTS, 'oauth-agent-desktop.png'), fullPage: true });
    // The activity log says the owner connected it, and names the agent it became.
    await page.goto('/activity');
    const entry = page.locator('li[data-action="oauth.approved"]').first();
    await entry.getByText('Conectó una app por OAuth').waitFor();
    expect(await entry.innerText()).toContain('«Asistente de compras»');
  });

  it('refreshes its tokens, rotating the refresh token', async () => {
    const before = host.saved!;
    expect(await auth(host, { serverUrl: `${srv.url}/mcp` })).toBe('AUTHORIZED');
    expect(host.saved!.access_token).not.toBe(before.access_token);
    expect(host.saved!.refresh_token).not.toBe(before.refresh_token);
    await mcp.close();
    mcp = await connect();
    expect((await mcp.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('asking the owner again keeps what the owner set on its agent since: the consent page starts from it', async () => {
    // The owner tightens the agent after connecting it.
    const edited = await rest.call('PATCH', `/v1/api-keys/${agentId}`, { token: ownerToken, body: { per_tx_limit_ars: 500, allowlist: [EXTERNAL_CBU] } });
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);

    // The host starts over (its tokens lost, say) and sends the owner to consent again, with the same registration.
    host.saved = undefined;
    callbackUrl = null;
    expect(await auth(host, { serverUrl: `${srv.url}/mcp` })).toBe('REDIRECT');
    await page.goto(host.authorizationUrl!.href);
    await page.getByText('Esta app ya está conectada como el agente «Asistente de compras»').waitFor();
    expect(await page.getByLabel('Límite diario').inputValue()).toBe('1.000,00');
    expect(await page.getByLabel('Límite por pago').inputValue()).toBe('500,00');
    await page.screenshot({ path: path.join(SHOTS, 'oauth-consent-again-desktop.png'), fullPage: true });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: path.join(SHOTS, 'oauth-consent-again-phone.png'), fullPage: true });
    await page.setViewportSize(DESKTOP);
    await page.getByRole('button', { name: 'Aprobar' }).click();
    await expect.poll(() => callbackUrl?.searchParams.get('code') ?? null, { timeout: 15_000 }).not.toBeNull();
    await new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { authProvider: host }).finishAuth(callbackUrl!.searchParams.get('code')!);

    const keys = (await rest.call('GET', '/v1/api-keys', { token: ownerToken })).json.api_keys as Record<string, unknown>[];
    expect(keys.filter((k) => k.kind === 'oauth')).toHaveLength(1);
    expect(keys.find((k) => k.id === agentId)).toMatchObject({ daily_limit_ars: 1000, per_tx_limit_ars: 500, allowlist: [EXTERNAL_CBU] });
    await mcp.close();
    mcp = await connect();
    const over = (await mcp.callTool({ name: 'request_payout', arguments: { amount_ars: 501, destination: EXTERNAL_CBU, idempotency_key: 'oauth-e2e-3' } })) as ToolResult;
    expect(over.structuredContent).toMatchObject({ decision: 'require_approval' });
    expect(over.structuredContent!.reasons).toContain('key_per_tx_limit');
    // Back to the agents screen, where the owner revokes it next.
    await page.goto('/agents');
    await page.locator(`[data-key-id="${agentId}"]`).getByText('conectado por OAuth').waitFor();
  });

  it("an app whose answer goes to an app scheme is named by that scheme, not by the host it wrote after it", async () => {
    // A native app may register any scheme; what follows `scheme://` is its own choice and names no site.
    const reg = await fetch(`${srv.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Claude', application_type: 'native', redirect_uris: ['com.example.impostor://claude.ai/callback'], token_endpoint_auth_method: 'none' }),
    });
    expect(reg.status).toBe(201);
    const { client_id } = (await reg.json()) as { client_id: string };
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const url = new URL(`${srv.url}/oauth/auth`);
    for (const [k, v] of Object.entries({
      client_id,
      response_type: 'code',
      redirect_uri: 'com.example.impostor://claude.ai/callback',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'payouts:read',
      resource: `${srv.url}/mcp`,
      state: 'st',
    })) url.searchParams.set(k, v);
    await page.goto(url.href);
    await page.getByRole('heading', { name: '«Claude» pide conectarse' }).waitFor();
    expect(await page.getByTestId('redirect-host').textContent()).toBe('la app de este dispositivo que abre «com.example.impostor:»');
    // Left undecided (it expires); back to the agents screen, where the owner revokes the real app next.
    await page.goto('/agents');
    await page.locator(`[data-key-id="${agentId}"]`).waitFor();
  });

  it('is cut off at once when the owner revokes it on the agents screen', async () => {
    const item = page.locator(`[data-key-id="${agentId}"]`);
    await item.getByRole('button', { name: /Revocar/ }).click();
    await page.getByRole('button', { name: 'Sí, revocar' }).click();
    await page.getByText('Clave revocada.').waitFor();
    const res = await fetch(`${srv.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${host.saved!.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('resource_metadata=');
    // The host's own retry (refresh) is refused too: it would have to ask the owner again.
    await expect(mcp.listTools()).rejects.toThrow();
    expect(problems).toEqual([]);
  });
});
