import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { AppContext } from '../context.js';
import { authenticateJwt, requireScopeOf, type Principal } from '../modules/auth/auth.service.js';
import type { Scope } from '../modules/keys/key-controls.js';
import { looksLikeApiKey } from '../modules/keys/keys.service.js';
import { AppError } from '../shared/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1]! : '';
}

/** The REST guard: a bearer JWT (contract, Authentication 3). Sets `request.principal`. */
export function requireAuth(ctx: AppContext): onRequestHookHandler {
  return async function authGuard(request: FastifyRequest, _reply: FastifyReply) {
    const token = bearerToken(request);
    if (token === null) throw new AppError('UNAUTHENTICATED', 'Send Authorization: Bearer <token>');
    if (token === '') throw new AppError('INVALID_TOKEN', 'Authorization header must be "Bearer <token>"');
    if (looksLikeApiKey(token)) {
      throw new AppError('INVALID_TOKEN', 'API keys are not accepted on REST; exchange it at POST /v1/auth/token');
    }
    request.principal = await authenticateJwt(ctx, token);
  };
}

/** D13: owner-only operations refuse agent sessions. Use after `requireAuth`. */
export const requireOwner: onRequestHookHandler = async function ownerGuard(request) {
  if (request.principal?.kind !== 'owner') {
    throw new AppError('OWNER_SESSION_REQUIRED', 'This operation needs the owner session from POST /v1/login');
  }
};

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('UNAUTHENTICATED', 'Not authenticated');
  return request.principal;
}

/** D31: a route an agent's key reaches only with `scope` (the owner's session has every scope). */
export function requireScope(scope: Scope): onRequestHookHandler {
  return async function scopeGuard(request) {
    requireScopeOf(principalOf(request), scope);
  };
}
