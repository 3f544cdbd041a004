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

export async function verifyToken(s: TokenSettings, token: string, now: Date): Promise<TokenClaims> {
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
    return { userId: payload.sub, kind, keyId: kind === 'api_key' ? (keyId as string) : undefined };
  } catch (e) {
    if (e instanceof joseErrors.JWTExpired) throw new AppError('TOKEN_EXPIRED', 'Token has expired; request a new one');
    throw new AppError('INVALID_TOKEN', 'Token is invalid');
  }
}
