import type { AppContext } from '../../context.js';
import { AppError } from '../../shared/errors.js';
import type { KeyControls, Scope } from '../keys/key-controls.js';
import { findActiveKey, findActiveKeyById, type ActiveKey } from '../keys/keys.service.js';
import { checkOwnerCredentials, getUser } from '../users/users.service.js';
import { issueToken, verifyToken, type SessionKind } from './tokens.js';

/** Who is calling, as every authenticated route and MCP tool sees it. */
export interface Principal {
  userId: string;
  kind: SessionKind;
  /** The key of an agent session (REST `api_key` JWT or MCP bearer key); absent for the owner's session. */
  keyId?: string;
  keyName?: string;
  /** D31: what the agent's key may do; absent for the owner, who may do everything. */
  controls?: KeyControls;
  /** D44: the agent came with an OAuth access token (at /mcp), so a missing scope is a challenge it can answer. */
  via?: 'oauth';
}

/** D31: the owner has every scope; an agent has its key's. */
export const hasScope = (who: Principal, scope: Scope): boolean => who.kind === 'owner' || (who.controls?.scopes.includes(scope) ?? false);

/** 403 INSUFFICIENT_SCOPE unless the caller's key has `scope` (D31). */
export function requireScopeOf(who: Principal, scope: Scope): void {
  if (!hasScope(who, scope)) throw new AppError('INSUFFICIENT_SCOPE', `This API key lacks the scope ${scope}; the owner can grant it`);
}

/** An expired key says so (not "deleted"), on REST, the token exchange and MCP alike. */
export const EXPIRED_KEY = 'This API key has expired; the owner can extend it or create a new one';
const DELETED_KEY = 'The API key behind this token has been deleted';

/**
 * D12, D31, D44: an agent's key read again under the per-user lock (a payout's decision, a limits proposal) refuses
 * the request as its token would now, once the owner's revoke has answered or the key has expired meanwhile.
 */
export function refuseUnlessLive<T>(key: T | 'gone' | 'expired'): T {
  if (key === 'gone') throw new AppError('INVALID_TOKEN', DELETED_KEY);
  if (key === 'expired') throw new AppError('INVALID_TOKEN', EXPIRED_KEY);
  return key;
}

const agentOf = (key: ActiveKey): Principal => ({ userId: key.user_id, kind: 'api_key', keyId: key.id, keyName: key.name, controls: key.controls });

const settings = (ctx: AppContext) => ({ secret: ctx.config.jwtSecret, expirySeconds: ctx.config.jwtExpirySeconds });

export async function exchangeApiKey(ctx: AppContext, apiKey: string) {
  const key = await findActiveKey(ctx, apiKey);
  if (key === 'expired') throw new AppError('INVALID_API_KEY', EXPIRED_KEY);
  if (!key) throw new AppError('INVALID_API_KEY', 'API key is invalid or has been deleted');
  return issueToken(settings(ctx), { userId: key.user_id, kind: 'api_key', keyId: key.id }, ctx.clock.now());
}

export async function loginOwner(ctx: AppContext, email: string, password: string) {
  const userId = await checkOwnerCredentials(ctx, email, password);
  return issueToken(settings(ctx), { userId, kind: 'owner' }, ctx.clock.now());
}

/**
 * Resolves a REST bearer JWT to a principal. D12: a token minted from a key that was deleted since stops
 * working; a token whose user is gone answers USER_NOT_FOUND (contract).
 */
export async function authenticateJwt(ctx: AppContext, token: string): Promise<Principal> {
  const claims = await verifyToken(settings(ctx), token, ctx.clock.now());
  // One indexed read on the happy path: a live key implies its user exists (keys go with their user).
  const key = claims.kind === 'api_key' ? await findActiveKeyById(ctx, claims.userId, claims.keyId!) : null;
  if (key && key !== 'expired') return agentOf(key);
  const user = await getUser(ctx, claims.userId);
  if (!user) throw new AppError('USER_NOT_FOUND', 'The user of this token does not exist');
  if (claims.kind === 'owner') return { userId: user.id, kind: 'owner' };
  throw new AppError('INVALID_TOKEN', key === 'expired' ? EXPIRED_KEY : DELETED_KEY);
}

/** MCP: the raw key is the credential (contract, Authentication 2); `'expired'` for an expired key. */
export async function authenticateApiKey(ctx: AppContext, apiKey: string): Promise<Principal | 'expired' | null> {
  const key = await findActiveKey(ctx, apiKey);
  if (!key || key === 'expired') return key;
  return agentOf(key);
}
