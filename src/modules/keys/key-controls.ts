import { kindOf } from '../../shared/ar-identifiers.js';
import { AppError } from '../../shared/errors.js';
import { arsToCentavos, centavosToArs } from '../../shared/money.js';

/** D31: what an agent's key may do. A key created with no scopes has all of them (the contract's "no scopes"). */
export const SCOPES = [
  'payouts:write',
  'payouts:read',
  'wallet:read',
  'transfer:write',
  'transactions:read',
  'thresholds:read',
  'thresholds:propose',
] as const;
export type Scope = (typeof SCOPES)[number];

/** A key's own controls (D31), in centavos; 0 = no key limit (the user's thresholds still apply). */
export interface KeyControls {
  scopes: Scope[];
  allowlist: string[];
  perTxLimit: number;
  dailyLimit: number;
  monthlyLimit: number;
  expiresAt: string | null;
}

/** The wire form of the controls. */
export interface KeyControlsInput {
  scopes?: string[];
  allowlist?: string[];
  per_tx_limit_ars?: number;
  daily_limit_ars?: number;
  monthly_limit_ars?: number;
  expires_at?: string | null;
}

export const DEFAULT_CONTROLS: KeyControls = {
  scopes: [...SCOPES],
  allowlist: [],
  perTxLimit: 0,
  dailyLimit: 0,
  monthlyLimit: 0,
  expiresAt: null,
};

/** Validates the fields given (others keep `base`); the message names the field (D8). */
export function parseControls(input: KeyControlsInput, base: KeyControls, now: Date): KeyControls {
  const out = { ...base };
  if (input.scopes !== undefined) {
    const bad = input.scopes.find((s) => !(SCOPES as readonly string[]).includes(s));
    if (bad !== undefined) throw new AppError('INVALID_REQUEST', `body.scopes: unknown scope "${bad}" (one of ${SCOPES.join(', ')})`);
    out.scopes = [...new Set(input.scopes as Scope[])];
  }
  if (input.allowlist !== undefined) {
    const bad = input.allowlist.find((w) => kindOf(w.trim()) === null);
    if (bad !== undefined) throw new AppError('INVALID_REQUEST', `body.allowlist: "${bad}" is not a valid CBU, CVU or alias`);
    out.allowlist = [...new Set(input.allowlist.map((w) => w.trim()))];
  }
  for (const [field, key] of [
    ['per_tx_limit_ars', 'perTxLimit'],
    ['daily_limit_ars', 'dailyLimit'],
    ['monthly_limit_ars', 'monthlyLimit'],
  ] as const) {
    const v = input[field];
    if (v === undefined) continue;
    const c = arsToCentavos(v);
    if (c === null || c < 0) throw new AppError('INVALID_REQUEST', `body.${field}: a non-negative amount with at most 2 decimals (0 = no key limit)`);
    out[key] = c;
  }
  if (input.expires_at !== undefined) {
    if (input.expires_at === null) out.expiresAt = null;
    else {
      const t = Date.parse(input.expires_at);
      if (!Number.isFinite(t)) throw new AppError('INVALID_REQUEST', 'body.expires_at: an ISO 8601 date-time');
      if (t <= now.getTime()) throw new AppError('INVALID_REQUEST', 'body.expires_at: must be in the future');
      out.expiresAt = new Date(t).toISOString();
    }
  }
  return out;
}

export const controlsView = (c: KeyControls) => ({
  scopes: c.scopes,
  allowlist: c.allowlist,
  per_tx_limit_ars: centavosToArs(c.perTxLimit),
  daily_limit_ars: centavosToArs(c.dailyLimit),
  monthly_limit_ars: centavosToArs(c.monthlyLimit),
  expires_at: c.expiresAt,
});
