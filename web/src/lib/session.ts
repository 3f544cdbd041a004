import { useSyncExternalStore } from 'react';

/**
 * The owner's session (D33): the JWT from POST /v1/login lives in memory and in this tab's sessionStorage (so a
 * reload keeps it, a new tab or a closed browser does not), never in localStorage. The token is only ever sent as
 * a bearer header to this origin's API.
 */
export interface Session {
  token: string;
  /** ms since epoch, from `expires_in`. */
  expiresAt: number;
  /** From the token's claims, for display only (the API decides): an agent's token is not the owner's. */
  kind: 'owner' | 'api_key' | 'unknown';
}

/** Why a session ended, for the login screen to say. */
export type EndReason = 'logout' | 'expired' | 'revoked';

const KEY = 'ars-wallet.session';
let current: Session | null = load();
let lastEnd: EndReason | null = null;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | undefined;

function kindOf(token: string): Session['kind'] {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { kind?: unknown };
    return payload.kind === 'owner' || payload.kind === 'api_key' ? payload.kind : 'unknown';
  } catch {
    return 'unknown';
  }
}

function load(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const s = JSON.parse(raw) as Session;
    if (typeof s.token !== 'string' || typeof s.expiresAt !== 'number') return null;
    return { ...s, kind: kindOf(s.token) };
  } catch {
    return null;
  }
}

function emit() {
  for (const l of listeners) l();
}

function schedule() {
  clearTimeout(timer);
  if (!current) return;
  // The API would answer 401 TOKEN_EXPIRED at the next call; ending the session on time says so without waiting.
  const ms = Math.min(current.expiresAt - Date.now(), 2 ** 31 - 1);
  timer = setTimeout(() => endSession('expired'), Math.max(0, ms));
}

export function startSession(token: string, expiresInSeconds: number): void {
  current = { token, expiresAt: Date.now() + expiresInSeconds * 1000, kind: kindOf(token) };
  lastEnd = null;
  sessionStorage.setItem(KEY, JSON.stringify({ token: current.token, expiresAt: current.expiresAt }));
  schedule();
  emit();
}

export function endSession(reason: EndReason): void {
  if (!current) return;
  current = null;
  lastEnd = reason;
  sessionStorage.removeItem(KEY);
  clearTimeout(timer);
  emit();
}

export const getSession = (): Session | null => (current && current.expiresAt > Date.now() ? current : null);
export const getToken = (): string | null => getSession()?.token ?? null;
/** The reason the last session ended; the login screen shows it once. */
export const lastEndReason = (): EndReason | null => lastEnd;
export const clearEndReason = (): void => {
  lastEnd = null;
};

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, () => current);
}

if (current) {
  if (current.expiresAt <= Date.now()) endSession('expired');
  else schedule();
}
