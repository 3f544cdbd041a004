import { Type } from '@sinclair/typebox';
import { resolveDestination } from '../destinations/destinations.service.js';
import { simulatePayout } from '../payouts/payout.simulate.js';
import { DestinationKind, Enum, Exact, N, NS, Nullable, PayoutFields, S, tool, type ToolDef } from './mcp.tool-kit.js';

/**
 * Looking before paying: what a payout would get, and who is behind a destination. Both only read; both ask the
 * bank who holds the destination (an outside account: open world).
 */
const LOOK = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

const Limit = Exact({
  limit: Type.Number({ description: 'ARS; 0 = no limit' }),
  used: Type.Number({ description: 'ARS already committed today (daily) or this month (monthly); 0 for a per-payout limit' }),
  remaining: Type.Union([N, Type.Null()], { description: 'ARS left before this limit holds a payout for approval; null = no limit' }),
});
const KeyLimit = Nullable(Limit);

const SIMULATE_PAYOUT = [
  'Check a payout BEFORE request_payout, with the same arguments (no idempotency_key): the decision it would get ' +
    'now and its reasons, what is left of each limit, and who is behind the destination. Nothing is created, counted ' +
    'or sent to the owner.',
  '',
  '- decision "allow": request_payout would send it.',
  '- decision "require_approval": request_payout would hold it for the owner; reasons say why (per_tx_limit, ' +
    'daily_limit, monthly_limit, above_approval_threshold, destination_not_whitelisted, key_*).',
  '- decision "deny": request_payout would refuse it (amount_invalid, destination_invalid, kyc_incomplete, ' +
    'absolute_cap, key_allowlist_violation, payouts_paused).',
  '',
  'limits.*.remaining is how much more fits under each limit today / this month; key_* are this API key’s own ' +
    'limits (null when it has none of its own). Use it to tell the user, never to split a payout into smaller ones ' +
    'to get under a limit. Check destination.holder_name with the user before paying someone new. It is a snapshot: ' +
    'request_payout decides again. Errors are those request_payout would answer: ONBOARDING_INCOMPLETE, ' +
    'APPROVAL_NOT_CONFIGURED, RAIL_UNAVAILABLE (retry later).',
].join('\n');

export const LOOK_TOOLS: ToolDef[] = [
  tool({
    name: 'simulate_payout',
    scope: 'payouts:read',
    title: 'Check a payout before sending it',
    description: SIMULATE_PAYOUT,
    input: Type.Object(
      PayoutFields,
      { additionalProperties: false },
    ),
    output: Exact({
      decision: Enum(['allow', 'require_approval', 'deny'] as const),
      reasons: Type.Array(S, { description: 'Policy reason codes, as request_payout would carry them' }),
      limits: Exact({ per_tx: Limit, daily: Limit, monthly: Limit, key_per_tx: KeyLimit, key_daily: KeyLimit, key_monthly: KeyLimit }),
      destination: Exact({
        kind: DestinationKind,
        account: Type.Union([S, Type.Null()], { description: 'The 22-digit account (an alias resolved); null when the bank knows no such account' }),
        holder_name: NS,
        bank_name: NS,
      }),
    }),
    annotations: LOOK,
    run: async (ctx, who, a) => ({ ...(await simulatePayout(ctx, who, a)) }),
  }),
  tool({
    name: 'resolve_destination',
    scope: 'payouts:read',
    title: 'Look up who is behind a CBU, CVU or alias',
    description:
      'Asks the bank who holds a CBU, CVU or alias: the account number, the holder’s name, their CUIT/CUIL (only the ' +
      'last 3 digits shown) and the bank. Call it before paying a destination for the first time, or when the user ' +
      'gives an alias, and confirm the holder with the user. DESTINATION_NOT_FOUND: no such account (or a mistyped ' +
      'one); ask the user to check it. Nothing is written.',
    input: Type.Object(
      {
        destination: Type.String({ minLength: 1, maxLength: 64, description: 'CBU or CVU (22 digits) or alias' }),
        destination_kind: PayoutFields.destination_kind,
      },
      { additionalProperties: false },
    ),
    output: Exact({
      destination_kind: DestinationKind,
      account: Type.String({ description: 'The 22-digit account (an alias resolved)' }),
      holder_name: S,
      holder_legal_id: Type.String({ description: 'CUIT/CUIL with all but the last 3 digits masked, e.g. "********783"' }),
      bank_name: NS,
    }),
    annotations: LOOK,
    run: async (ctx, _who, a) => ({ ...(await resolveDestination(ctx, a)) }),
  }),
];
