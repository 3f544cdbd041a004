import { createECDH, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { AppContext } from '../../context.js';
import { SCOPES } from '../keys/key-controls.js';
import { findActiveOAuthKey } from '../keys/keys.service.js';
import type { MetadataFetch } from './metadata-fetch.js';
import { StoreAdapter } from './oauth.adapter.js';

/** D44: the provider's own endpoints live under this prefix; its issuer is the service's public URL itself. */
export const OAUTH_PREFIX = '/oauth';
/** The dashboard page where the owner gives or refuses consent (web/src/screens/connect.tsx). */
export const CONSENT_PAGE = '/connect';

/**
 * D44: the cookie that ties a consent to the browser whose authorization asked for it. Set when the library sends
 * that browser to the consent page, scoped to the consent routes of that one authorization, so the dashboard's
 * calls from the same browser carry it and a /connect/<id> link opened anywhere else has nothing to show.
 */
export const CONSENT_COOKIE = 'oauth_consent';
const consentRoute = (uid: string) => `/v1/oauth/interactions/${uid}`;

const ACCESS_TOKEN_TTL = 60 * 60;
/** The hosts a plain http redirect URI may name: this machine only (RFC 8252 loopback redirection). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const REFRESH_TOKEN_TTL = 30 * 24 * 60 * 60;
const INTERACTION_TTL = 30 * 60;

/** Key material the nodes sharing a database agree on without storing it: derived from SECRETS_KEY (D29). */
const derive = (secretsKey: string, info: string) => Buffer.from(hkdfSync('sha256', secretsKey, 'oauth', info, 32));

/** The signing key for the ID tokens the library may issue: a P-256 key derived from SECRETS_KEY. */
function signingJwk(secretsKey: string) {
  const d = derive(secretsKey, 'signing-key-es256');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const pub = ecdh.getPublicKey();
  return {
    kty: 'EC',
    crv: 'P-256',
    alg: 'ES256',
    use: 'sig',
    d: d.toString('base64url'),
    x: pub.subarray(1, 33).toString('base64url'),
    y: pub.subarray(33, 65).toString('base64url'),
  };
}

const hostOf = (address: string) => (address === '0.0.0.0' || address === '::' ? 'localhost' : address.includes(':') ? `[${address}]` : address);

/**
 * The authorization server and what the MCP resource says about itself. Built on first use: without PUBLIC_URL
 * its URL is the address the service listens on, known only once it listens.
 */
export class OAuthServer {
  private built: Provider | null = null;
  private base: string | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly address: () => AddressInfo | string | null,
    /** What the server fetches from the internet goes through this port (metadata-fetch.ts). */
    private readonly fetchDocument: MetadataFetch,
  ) {}

  /** The public origin, e.g. `https://wallet.example.com`. */
  get issuer(): string {
    if (this.base) return this.base;
    if (this.ctx.config.publicUrl) return (this.base = this.ctx.config.publicUrl);
    const a = this.address();
    // Not listening yet (requests injected in tests): the configured address, not remembered.
    if (!a || typeof a === 'string') return `http://${hostOf(this.ctx.config.host)}:${this.ctx.config.port}`;
    return (this.base = `http://${hostOf(a.address)}:${a.port}`);
  }

  /** The resource indicator (RFC 8707) of the MCP endpoint: the audience every token we issue is bound to. */
  get resource(): string {
    return `${this.issuer}/mcp`;
  }

  get resourceMetadataUrl(): string {
    return `${this.issuer}/.well-known/oauth-protected-resource/mcp`;
  }

  /** RFC 9728 protected-resource metadata of `/mcp`. */
  resourceMetadata() {
    return {
      resource: this.resource,
      authorization_servers: [this.issuer],
      scopes_supported: [...SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'ARS wallet payouts (MCP)',
    };
  }

  /** What the consent cookie of authorization `uid` holds: only this server can make it. */
  consentProof(uid: string): string {
    return createHmac('sha256', derive(this.ctx.config.secretsKey, 'consent-browser')).update(uid).digest('base64url');
  }

  /** Whether a request (its Cookie header) comes from the browser that authorization `uid` sent to the consent page. */
  isConsentBrowser(cookieHeader: string | undefined, uid: string): boolean {
    const expected = Buffer.from(this.consentProof(uid));
    return (cookieHeader ?? '').split(';').some((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0 || pair.slice(0, eq).trim() !== CONSENT_COOKIE) return false;
      const value = Buffer.from(pair.slice(eq + 1).trim());
      return value.length === expected.length && timingSafeEqual(value, expected);
    });
  }

  provider(): Provider {
    if (!this.built) {
      this.built = new Provider(this.issuer, this.configuration());
      // The library builds its URLs from X-Forwarded-Host and -Proto, which the hand-over (oauth.routes.ts) sets
      // from PUBLIC_URL on every request: never from what a caller sent.
      this.built.proxy = true;
    }
    return this.built;
  }

  private configuration(): Configuration {
    const ctx = this.ctx;
    const store = ctx.store;
    const resource = () => this.resource;
    const fetchDocument = this.fetchDocument;
    return {
      adapter: (name: string) => new StoreAdapter(store, name),
      jwks: { keys: [signingJwk(ctx.config.secretsKey)] },
      cookies: { keys: [derive(ctx.config.secretsKey, 'cookies').toString('base64url')] },
      // The account of a grant is the agent (api_keys row of kind `oauth`) it made; revoked or expired, it is gone.
      async findAccount(_kctx, id) {
        const key = await findActiveOAuthKey(ctx, id);
        return key && key !== 'expired' ? { accountId: id, claims: () => ({ sub: id }) } : undefined;
      },
      // The pages the library shows a person itself (a bad authorization request): short, in words, no internals.
      async renderError(kctx, out) {
        const esc = (v: unknown) => String(v ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
        kctx.type = 'html';
        kctx.body = `<!doctype html><html><head><meta charset="utf-8"><title>Authorization refused</title></head><body><h1>The app's request cannot be authorized</h1><p><code>${esc(out.error)}</code>: ${esc(out.error_description)}</p></body></html>`;
      },
      // The library checks its own interaction cookie only in its own routes; ours (oauth.routes.ts) check this one.
      interactions: {
        url: (kctx, interaction) => {
          kctx.cookies.set(CONSENT_COOKIE, this.consentProof(interaction.uid), {
            path: consentRoute(interaction.uid),
            httpOnly: true,
            sameSite: 'lax',
            secure: kctx.secure,
            signed: false,
            overwrite: true,
            maxAge: INTERACTION_TTL * 1000,
          });
          return `${CONSENT_PAGE}/${interaction.uid}`;
        },
      },
      // Each authorization asks the owner again: a grant is never reused silently from the browser's session.
      loadExistingGrant: async (kctx: KoaContextWithOIDC) => {
        const grantId = kctx.oidc.result?.consent?.grantId;
        return grantId ? kctx.oidc.provider.Grant.find(grantId) : undefined;
      },
      // D44: authorization code with PKCE (S256 is the only method the library knows) for every client.
      pkce: { required: () => true },
      responseTypes: ['code'],
      // Hosts register with the scopes the resource advertises (its metadata's scopes_supported): the library accepts
      // only scopes it knows in a registration, so the MCP scopes are listed here too; tokens carry them per resource.
      scopes: ['openid', 'offline_access', ...SCOPES],
      clientDefaults: {
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        id_token_signed_response_alg: 'ES256',
      },
      // MCP authorization (Communication Security): a redirect URI is localhost or https. The library takes plain
      // http to any host for a web client, which would send the code across the network in the clear; registrations
      // and client ID metadata documents listing one are refused. Other schemes stay the library's call (it refuses
      // javascript:, data: and the like; a native app's own scheme is allowed).
      extraClientMetadata: {
        properties: ['redirect_uris'],
        validator(_kctx, key, value) {
          if (key !== 'redirect_uris' || !Array.isArray(value)) return;
          for (const uri of value) {
            const parsed = typeof uri === 'string' ? URL.parse(uri) : null;
            if (parsed?.protocol === 'http:' && !LOOPBACK_HOSTS.has(parsed.hostname)) {
              throw new errors.InvalidRedirectUri('redirect_uris must use https, or http on the loopback (localhost, 127.0.0.1, [::1]) only');
            }
          }
        },
      },
      clientBasedCORS: (_kctx, origin, client) => client.redirectUris?.some((uri) => URL.parse(uri)?.origin === origin) ?? false,
      issueRefreshToken: async (_kctx, client) => client.grantTypeAllowed('refresh_token'),
      rotateRefreshToken: true,
      ttl: {
        AccessToken: ACCESS_TOKEN_TTL,
        AuthorizationCode: 60,
        RefreshToken: REFRESH_TOKEN_TTL,
        Interaction: INTERACTION_TTL,
        Session: 24 * 60 * 60,
        Grant: 365 * 24 * 60 * 60,
        IdToken: ACCESS_TOKEN_TTL,
      },
      routes: {
        authorization: `${OAUTH_PREFIX}/auth`,
        token: `${OAUTH_PREFIX}/token`,
        registration: `${OAUTH_PREFIX}/register`,
        revocation: `${OAUTH_PREFIX}/revoke`,
        jwks: `${OAUTH_PREFIX}/jwks`,
        end_session: `${OAUTH_PREFIX}/session/end`,
        userinfo: `${OAUTH_PREFIX}/me`,
        introspection: `${OAUTH_PREFIX}/introspect`,
        pushed_authorization_request: `${OAUTH_PREFIX}/par`,
      },
      features: {
        devInteractions: { enabled: false },
        // A DPoP-bound token needs a proof at every use; /mcp takes bearer tokens only, so none is offered.
        dPoP: { enabled: false },
        userinfo: { enabled: false },
        rpInitiatedLogout: { enabled: false },
        revocation: { enabled: true },
        registration: { enabled: true, initialAccessToken: false },
        // A client_id that is an https URL names its metadata document, fetched through fetchDocument (below).
        clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
        resourceIndicators: {
          enabled: true,
          defaultResource: async () => resource(),
          useGrantedResource: async () => true,
          // D44: tokens for the MCP endpoint only; any other resource is an invalid target.
          async getResourceServerInfo(_kctx, indicator) {
            if (indicator !== resource()) throw new errors.InvalidTarget('the only resource is this service\'s MCP endpoint');
            return { scope: SCOPES.join(' '), audience: resource(), accessTokenTTL: ACCESS_TOKEN_TTL, accessTokenFormat: 'opaque' };
          },
        },
      },
      discovery: { service_documentation: undefined },
      // Everything the library fetches goes through our port rather than its own SSRF-guarded dispatcher (which is
      // dropped here): ours resolves the host once, refuses private addresses before connecting, connects to the
      // address it checked (DNS rebinding), honours WEBHOOK_ALLOW_PRIVATE_NETWORKS, and lets tests trust their CA.
      fetch: async (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        const answer = await fetchDocument(url, { method: init?.method, headers: init?.headers, signal: init?.signal ?? undefined });
        return answer as unknown as Response;
      },
    };
  }
}
