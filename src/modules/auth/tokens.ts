import { randomUUID } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { AppError } from '../../shared/errors.js';

/** D12: HS256 pinned, iss/aud/exp checked, the session kind and (for agents) the key id in the claims. */
export const JWT_ISSUER = 'ars-wallet-payouts';
export const JWT_AUDIENCE = 'ars-wallet-payouts/v1';

export type SessionKind = 'api_key' | 'owner';

export interface TokenClaims {
  userId: string;
  kind: SessionKind;
  keyId?: string;
}

export interface TokenSettings {
  secret: string;
  expirySeconds: number;
}

/**
 * The HMAC key, imported once per secret: handing jose raw bytes makes it import a WebCrypto key on every sign
 * and verify, which was a tenth of a request's CPU.
 */
const keys = new Map<string, Promise<CryptoKey>>();
function keyOf(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keys.set(secret, key);
  }
  return key;
}

export async function issueToken(
  s: TokenSettings,
  claims: TokenClaims,
  now: Date,
): Promise<{ token: string; expires_in: number }> {
  const iat = Math.floor(now.getTime() / 1000);
  const token = await new SignJWT({ kind: claims.kind, ...(claims.keyId ? { key_id: claims.keyId } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + s.expirySeconds)
    .setJti(randomUUID())
    .sign(await keyOf(s.secret));
  return { token, expires_in: s.expirySeconds };
}

/** Tokens already verified, per secret: most requests carry a token the service has seen. */
const VERIFIED_MAX = 10_000;
const verified = new Map<string, Map<string, { claims: TokenClaims; exp: number }>>();

/**
 * A token whose signature and claims were verified once is the same string every time it comes back, so its
 * claims are remembered (bounded, oldest forgotten first) and only its expiry is checked again: the HMAC check
 * through WebCrypto was a fifth of a read request's CPU. Revocation is unaffected: the caller still checks the
 * token's key or user in the store on every request.
 */
export async function verifyToken(s: TokenSettings, token: string, now: Date): Promise<TokenClaims> {
  let cache = verified.get(s.secret);
  if (!cache) verified.set(s.secret, (cache = new Map()));
  const hit = cache.get(token);
  if (hit) {
    // The same rule as jose's: expired once the current second reaches `exp`.
    if (Math.floor(now.getTime() / 1000) >= hit.exp) throw new AppError('TOKEN_EXPIRED', 'Token has expired; request a new one');
    return hit.claims;
  }
  const { claims, exp } = await verifySignedToken(s, token, now);
  if (cache.size >= VERIFIED_MAX) cache.delete(cache.keys().next().value!);
  cache.set(token, { claims, exp });
  return claims;
}

async function verifySignedToken(s: TokenSettings, token: string, now: Date): Promise<{ claims: TokenClaims; exp: number }> {
  try {
    const { payload } = await jwtVerify(token, await keyOf(s.secret), {
      algorithms: ['HS256'],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    const kind = payload.kind;
    const keyId = payload.key_id;
    if (typeof payload.sub !== 'string' || (kind !== 'api_key' && kind !== 'owner')) throw new Error('claims');
    if (kind === 'api_key' && typeof keyId !== 'string') throw new Error('claims');
    return { claims: { userId: payload.sub, kind, keyId: kind === 'api_key' ? (keyId as string) : undefined }, exp: payload.exp! };
  } catch (e) {
    if (e instanceof joseErrors.JWTExpired) throw new AppError('TOKEN_EXPIRED', 'Token has expired; request a new one');
    throw new AppError('INVALID_TOKEN', 'Token is invalid');
  }
}
