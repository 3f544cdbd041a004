import { Type } from '@sinclair/typebox';
import type { ApprovalStatus } from '../approvals/approvals.tables.js';
import { listTransactions } from '../transactions/transactions.service.js';
import { replayedFailure, requestPayout } from '../payouts/payout.request.js';
import { getPayout, listPayouts } from '../payouts/payout.view.js';
import type { PayoutStatus as PayoutStatusCode } from '../payouts/payouts.tables.js';
import { getReceipt } from '../payouts/receipt.service.js';
import { proposeThresholdChange } from '../thresholds/threshold-proposal.service.js';
import { ThresholdFields } from '../thresholds/thresholds.schemas.js';
import { getThresholds } from '../thresholds/thresholds.service.js';
import { getBalance, getCvu, listDeposits } from '../wallet/wallet.service.js';
import { LOOK_TOOLS } from './mcp.look-tools.js';
import { Enum, Exact, N, NS, Nullable, PayoutFields, READ, S, Time, tool, type ToolDef } from './mcp.tool-kit.js';


const PAYOUT_STATUSES = [
  'pending_approval',
  'approved',
  'rejected',
  'expired',
  'submitted',
  'confirmed',
  'failed',
] as const satisfies readonly PayoutStatusCode[];
const PayoutStatus = Enum(PAYOUT_STATUSES);
const Decision = Enum(['allow', 'require_approval'] as const);
const DestinationKind = Enum(['CBU', 'CVU', 'ALIAS'] as const);
const Reasons = Type.Array(S, { description: 'Policy reason codes, see request_payout' });

const PayoutRecord = Exact({
  id: S,
  amount_ars: N,
  destination: S,
  destination_kind: DestinationKind,
  status: PayoutStatus,
  decision: Decision,
  decision_reasons: Reasons,
  idempotency_key: S,
  created_at: Time,
  resolved_at: Nullable(Time),
  provider_transfer_id: NS,
  coelsa_id: NS,
  api_key_id: NS,
  api_key_name: NS,
  note: NS,
  failure_reason: Type.Union([S, Type.Null()], { description: 'Why a failed payout failed (rail code, or the reasons an approval was refused)' }),
  approval_id: NS,
  recipient_name: NS,
  recipient_legal_id: NS,
  updated_at: Time,
  waiting_for_resume: Type.Boolean({ description: 'Approved but held by the owner\'s emergency stop: sent once payouts are resumed, unless the owner cancels it' }),
});

const Transfer = Exact({
  id: S,
  from: S,
  to: S,
  fromLegalId: S,
  toLegalId: S,
  fromName: S,
  toName: S,
  amount: Type.String({ description: 'ARS, 2 decimals, e.g. "1500.00"' }),
  currency: Type.Literal('ARS'),
  status: S,
  // Written by the bank rail, not by us: ISO 8601, but not held to a zone.
  creationTime: S,
  direction: Enum(['credit', 'debit'] as const, '"credit" is money in, "debit" money out'),
});

const Receipt = Exact({
  payout_id: S,
  status: PayoutStatus,
  title: S,
  status_text: S,
  amount_ars: N,
  currency: Type.Literal('ARS'),
  origin: Exact({ cvu: S, alias: NS, holder_name: S, holder_legal_id: S }),
  destination: Exact({
    value: S,
    kind: S,
    account: NS,
    account_masked: NS,
    account_type: Nullable(Enum(['CBU', 'CVU'] as const)),
    bank_code: NS,
    bank_name: NS,
    psp_code: NS,
    institution: NS,
    recipient_name: NS,
    recipient_legal_id: NS,
  }),
  provider_transfer_id: NS,
  coelsa_id: NS,
  operation_id: NS,
  reference: S,
  api_key_name: NS,
  note: NS,
  decision: Decision,
  decision_reasons: Reasons,
  created_at: Time,
  approved_at: Nullable(Time),
  submitted_at: Nullable(Time),
  resolved_at: Nullable(Time),
  approved_by: Nullable(Exact({ by: Enum(['policy', 'owner'] as const), via: NS })),
  approval: Nullable(
    Exact({
      id: S,
      status: Enum(['pending', 'approved', 'rejected', 'expired'] as const satisfies readonly ApprovalStatus[]),
      expires_at: Time,
      decided_at: Nullable(Time),
      decided_via: NS,
    }),
  ),
  failure_reason: NS,
  failure_reason_text: NS,
});

const Replayed = Type.Boolean({ description: 'true when this is the stored answer to an earlier call with the same idempotency_key' });

/** The 201 and 202 bodies of POST /v1/withdraws, plus `replayed`; an object schema whose variants are exact. */
const PayoutOutcome = Object.assign(
  Type.Union([
    Exact(
      {
        id: S,
        status: Enum(['submitted', 'approved', 'confirmed'] as const, '"submitted" (sent to the bank); "approved" while the bank’s answer is pending'),
        decision: Type.Literal('allow'),
        replayed: Replayed,
      },
      { title: 'Sent' },
    ),
    Exact(
      {
        id: S,
        status: Type.Literal('pending_approval'),
        decision: Type.Literal('require_approval'),
        reasons: Reasons,
        approval_id: S,
        expires_in: Type.Integer({ minimum: 0, description: 'Seconds the owner has to decide' }),
        replayed: Replayed,
      },
      { title: 'Held for the owner’s approval' },
    ),
  ]),
  { type: 'object' as const },
);

/** Read by the model before it moves money: idempotency, what a held or denied payout means, no splitting. */
const REQUEST_PAYOUT = [
  'Send ARS from the wallet to a CBU, CVU (22 digits) or alias: money leaves for another bank account. To check ' +
    'first without creating anything, call simulate_payout (decision, limits left, holder) or resolve_destination ' +
    '(who is behind a destination).',
  '',
  'Idempotency: generate ONE new idempotency_key (e.g. a UUID) per intended payout. On every retry of that ' +
    'payout (after an error, a timeout or a lost connection) reuse the same key with the same arguments: you get ' +
    'the original answer (replayed: true) and the money moves at most once. A new key is a new payout. ' +
    'IDEMPOTENCY_KEY_IN_USE: the first call is still running; retry shortly with the same key. ' +
    'IDEMPOTENCY_KEY_REUSED: that key belongs to a different payout.',
  '',
  'The owner’s policy decides every payout:',
  '- decision "allow": sent (status "submitted", or "approved" while the bank answers); follow it with get_payout.',
  '- decision "require_approval", status "pending_approval": HELD until the owner approves or rejects within ' +
    'expires_in seconds. Tell the user it waits for the owner’s approval and why, then stop: do not call again ' +
    'for it (get_payout shows the outcome later).',
  '- denied: an isError result {"error":"PAYOUT_DENIED","reasons":[…]}. Nothing was created. Tell the user why.',
  '',
  'Reading reasons: per_tx_limit, daily_limit, monthly_limit (over a limit), above_approval_threshold (over the ' +
    'amount that needs approval), destination_not_whitelisted, and key_* (this API key’s own limits) hold a ' +
    'payout for approval. amount_invalid (not > 0 or more than 2 decimals), destination_invalid, kyc_incomplete ' +
    '(identity not verified), absolute_cap (over the service maximum) and payouts_paused deny it; only a genuine ' +
    'input mistake (the amount’s format, a mistyped destination) may be corrected and sent again.',
  '',
  'A held or denied payout stands as decided: NEVER split it into smaller payouts, or send part of it, to get ' +
    'under a limit or the approval threshold; that goes around the owner’s policy. If the user needs more, the ' +
    'owner must approve it or raise the limits (propose_threshold_change).',
  '',
  'Other errors: WITHDRAW_FAILED (the bank rejected it; nothing moved; tell the user), RAIL_UNAVAILABLE (retry ' +
    'later with the same key), APPROVAL_NOT_CONFIGURED (it needs approval but the owner has no approval channel), ' +
    'ONBOARDING_INCOMPLETE.',
].join('\n');

export const TOOLS: ToolDef[] = [
  tool({
    name: 'request_payout',
    scope: 'payouts:write',
    title: 'Request a payout',
    description: REQUEST_PAYOUT,
    input: Type.Object(
      {
        ...PayoutFields,
        idempotency_key: Type.String({
          minLength: 1,
          maxLength: 255,
          description: 'One per intended payout (e.g. a UUID); send the same key on every retry of that payout',
        }),
      },
      { additionalProperties: false },
    ),
    output: PayoutOutcome,
    // Moves money out of the wallet to another bank (destructive, open world); repeating it with the same key is a no-op.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    run: async (ctx, who, a) => {
      const { idempotency_key, ...body } = a;
      // Trimmed as HTTP trims the REST header, so both surfaces name a payout by the same key.
      const res = await requestPayout(ctx, who, body, idempotency_key.trim());
      const failed = replayedFailure(res);
      if (failed) throw failed;
      return { ...res.body, replayed: res.replayed };
    },
  }),
  ...LOOK_TOOLS,
  tool({
    name: 'get_receipt',
    scope: 'payouts:read',
    title: 'Get a payout receipt',
    description:
      'The receipt of one payout: amount, origin and destination accounts, recipient, bank operation number and ' +
      'timestamps. Only a "confirmed" payout is proof of payment; status_text and failure_reason_text explain the others.',
    input: Type.Object({ payout_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
    output: Receipt,
    annotations: READ,
    run: async (ctx, who, a) => ({ ...(await getReceipt(ctx, who.userId, a.payout_id)) }),
  }),
  tool({
    name: 'list_recent_deposits',
    scope: 'wallet:read',
    title: 'List recent transfers',
    description:
      'Recent transfers to and from the wallet’s CVU, newest first, live from the bank. Both directions are ' +
      'listed: "direction" "credit" is money in (a deposit), "debit" money out.',
    input: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })) }, { additionalProperties: false }),
    output: Exact({ transfers: Type.Array(Transfer), count: Type.Integer({ minimum: 0 }) }),
    annotations: READ,
    run: async (ctx, who, a) => {
      const transfers = await listDeposits(ctx, who.userId, a.limit ?? 10);
      return { transfers, count: transfers.length };
    },
  }),
  tool({
    name: 'propose_threshold_change',
    scope: 'thresholds:propose',
    title: 'Propose new spending limits',
    description:
      'Ask the owner to change the spending limits; send only the fields to change (amounts in ARS, 0 disables a ' +
      'limit). Nothing changes until the owner approves within expires_in seconds; then only the proposed fields ' +
      'change. Each call is a new request to the owner: tell the user it awaits approval, do not repeat it.',
    input: Type.Partial(Type.Object(ThresholdFields), { additionalProperties: false }),
    output: Exact({
      approval_id: S,
      status: Type.Literal('pending'),
      expires_at: Time,
      expires_in: Type.Integer({ minimum: 0, description: 'Seconds the owner has to decide' }),
      proposed: Type.Partial(Type.Object(ThresholdFields), { additionalProperties: false, minProperties: 1 }),
    }),
    // Changes nothing by itself (not destructive) but each call asks the owner again (not idempotent); it reaches
    // only this wallet's owner and limits (closed world).
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async (ctx, who, a) => proposeThresholdChange(ctx, who, a),
  }),
  tool({
    name: 'get_balance',
    scope: 'wallet:read',
    title: 'Get the balance',
    description: 'The wallet’s available balance in ARS, as a decimal string with 2 decimals.',
    input: Type.Object({}, { additionalProperties: false }),
    output: Exact({ asset: Type.Literal('ARS'), available: Type.String({ description: 'e.g. "1500.00"' }) }),
    annotations: READ,
    run: async (ctx, who) => getBalance(ctx, who.userId),
  }),
  tool({
    name: 'get_cvu',
    scope: 'wallet:read',
    title: 'Get the wallet’s CVU and alias',
    description: 'The wallet’s CVU (22 digits) and alias, for someone to send money to it.',
    input: Type.Object({}, { additionalProperties: false }),
    output: Exact({ cvu: S, alias: S, asset: Type.Literal('ARS') }),
    annotations: READ,
    run: async (ctx, who) => ({ ...(await getCvu(ctx, who.userId)) }),
  }),
  tool({
    name: 'get_thresholds',
    scope: 'thresholds:read',
    title: 'Get the spending limits',
    description:
      'The owner’s spending limits in ARS (0 = disabled), the amount above which a payout needs approval, and ' +
      'the whitelist of destinations. Use it to explain a held payout; to change them, use propose_threshold_change.',
    input: Type.Object({}, { additionalProperties: false }),
    output: Exact(ThresholdFields),
    annotations: READ,
    run: async (ctx, who) => ({ ...(await getThresholds(ctx, who.userId)) }),
  }),
  tool({
    name: 'get_payout',
    scope: 'payouts:read',
    title: 'Get a payout',
    description:
      'One payout by id: status (pending_approval, approved, submitted, confirmed; or rejected, expired, failed), ' +
      'decision and decision_reasons, failure_reason. Use it to follow a payout; it never changes anything.',
    input: Type.Object({ payout_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
    output: PayoutRecord,
    annotations: READ,
    run: async (ctx, who, a) => ({ ...(await getPayout(ctx, who.userId, a.payout_id)) }),
  }),
  tool({
    name: 'list_payouts',
    scope: 'payouts:read',
    title: 'List payouts',
    description: 'Payouts of this wallet, newest first. When next_cursor is not null, pass it as cursor for the next page.',
    input: Type.Object(
      { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })), cursor: Type.Optional(Type.String({ maxLength: 64 })) },
      { additionalProperties: false },
    ),
    output: Exact({ withdraws: Type.Array(PayoutRecord), next_cursor: NS }),
    annotations: READ,
    run: async (ctx, who, a) => listPayouts(ctx, who.userId, { limit: a.limit ?? 20, cursor: a.cursor }),
  }),
  tool({
    name: 'list_transactions',
    scope: 'transactions:read',
    title: 'List wallet transactions',
    description:
      'Money in and out of the wallet, newest first: a debit per payout that reached the bank, a credit per incoming ' +
      'deposit. While has_more is true, pass next_cursor as cursor for the next page; pages never skip or repeat.',
    input: Type.Object(
      { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })), cursor: Type.Optional(Type.String({ maxLength: 64 })) },
      { additionalProperties: false },
    ),
    output: Exact({
      transactions: Type.Array(
        Exact({
          id: S,
          type: Enum(['debit', 'credit'] as const),
          amount: N,
          destination: Type.Optional(S),
          origin: Type.Optional(S),
          counterparty_name: NS,
          description: S,
          status: Enum(['pending', 'completed', 'failed'] as const),
          created_at: Time,
          payout_id: Type.Optional(S),
        }),
      ),
      next_cursor: NS,
      has_more: Type.Boolean(),
    }),
    annotations: READ,
    run: async (ctx, who, a) => ({ ...(await listTransactions(ctx, who.userId, { limit: a.limit ?? 20, cursor: a.cursor })) }),
  }),
];
