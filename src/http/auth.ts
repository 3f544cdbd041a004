import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { AppContext } from '../context.js';
import { authenticateJwt, requireScopeOf, type Principal } from '../modules/auth/auth.service.js';
import type { Scope } from '../modules/keys/key-controls.js';
import { looksLikeApiKey } from '../modules/keys/keys.service.js';
import { AppError } from '../shared/errors.js';

/**
 * D38: who may call a route, declared once in the route's `config.access` and enforced by `registerAccess`.
 * - `public`: no credentials (sign-up, login, the key exchange, health).
 * - `own-credential`: the route checks a credential of its own (a signature, a secret in the URL, MCP's raw key).
 * - `owner`: the owner's session only; agent sessions get 403 OWNER_SESSION_REQUIRED.
 * - `{ scope }`: the owner's session, or an agent whose key names the scope (403 INSUFFICIENT_SCOPE otherwise).
 * A key with no scopes therefore reaches nothing but the key exchange.
 */
export type Access = 'public' | 'own-credential' | 'owner' | { scope: Scope };

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** D38: who may call this route (see `Access`). Required on every /v1 route and /mcp. */
    access?: Access;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1]! : '';
}

/** The REST credential: a bearer JWT (contract, Authentication 3). Sets `request.principal`. */
async function authenticate(ctx: AppContext, request: FastifyRequest): Promise<Principal> {
  const token = bearerToken(request);
  // Contract, Errors: UNAUTHENTICATED is "Bearer token missing": no header, another scheme or an empty bearer alike.
  if (token === null) throw new AppError('UNAUTHENTICATED', 'Send Authorization: Bearer <token>');
  if (token === '') throw new AppError('UNAUTHENTICATED', 'The Authorization header must be "Bearer <token>"');
  if (looksLikeApiKey(token)) {
    throw new AppError('INVALID_TOKEN', 'API keys are not accepted on REST; exchange it at POST /v1/auth/token');
  }
  request.principal = await authenticateJwt(ctx, token);
  return request.principal;
}

/** The one guard an access declaration becomes: authenticate, then check the session kind or the scope. */
export function guardFor(ctx: AppContext, access: 'owner' | { scope: Scope }): onRequestHookHandler {
  if (access === 'owner') {
    // D13, D38: owner-only operations refuse agent sessions.
    return async function ownerGuard(request) {
      const who = await authenticate(ctx, request);
      if (who.kind !== 'owner') throw new AppError('OWNER_SESSION_REQUIRED', 'This operation needs the owner session from POST /v1/login');
    };
  }
  const { scope } = access;
  // D31: the owner's session has every scope; an agent has its key's.
  return async function scopeGuard(request) {
    requireScopeOf(await authenticate(ctx, request), scope);
  };
}

const ROUTES_THAT_DECLARE = /^\/(v1\/|mcp$)/;

/**
 * D38: turns each route's `config.access` into its guard, ahead of the route's own hooks. Must be registered
 * before the routes; a /v1 route (or /mcp) that declares no access fails the start, so none is reachable by
 * accident.
 */
export function registerAccess(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (access === undefined) {
      if (ROUTES_THAT_DECLARE.test(route.url)) {
        throw new Error(`${String(route.method)} ${route.url} declares no config.access ('public', 'own-credential', 'owner' or { scope })`);
      }
      return;
    }
    if (access === 'public' || access === 'own-credential') return;
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [guardFor(ctx, access), ...own];
  });
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('UNAUTHENTICATED', 'Not authenticated');
  return request.principal;
}
