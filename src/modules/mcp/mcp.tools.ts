import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import type { Principal } from '../auth/auth.service.js';
import { requestPayout } from '../payouts/payout.request.js';
import { getPayout, listPayouts } from '../payouts/payout.view.js';
import { getReceipt } from '../payouts/receipt.service.js';
import { proposeThresholdChange } from '../thresholds/threshold-proposal.service.js';
import { ThresholdFields } from '../thresholds/thresholds.schemas.js';
import { getThresholds } from '../thresholds/thresholds.service.js';
import { getBalance, getCvu, listDeposits } from '../wallet/wallet.service.js';

/** An MCP tool: schemas for the model, hints for the client, and a thin call into the service functions. */
export interface ToolDef<I extends TSchema = TSchema> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: TSchema;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  run(ctx: AppContext, who: Principal, args: Static<I>): Promise<Record<string, unknown>>;
}

const tool = <I extends TSchema>(t: ToolDef<I>): ToolDef => t as unknown as ToolDef;
const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const S = Type.String();
const N = Type.Number();
const Nullable = (t: TSchema) => Type.Union([t, Type.Null()]);
const Obj = (props: Record<string, TSchema>) => Type.Object(props, { additionalProperties: true });

const PayoutRecord = Obj({
  id: S,
  amount_ars: N,
  destination: S,
  destination_kind: S,
  status: S,
  decision: S,
  decision_reasons: Type.Array(S),
  idempotency_key: S,
  created_at: S,
  resolved_at: Nullable(S),
  provider_transfer_id: Nullable(S),
  api_key_id: Nullable(S),
  api_key_name: Nullable(S),
});
const Transfer = Obj({
  id: S,
  from: S,
  to: S,
  fromLegalId: S,
  toLegalId: S,
  fromName: S,
  toName: S,
  amount: S,
  currency: S,
  status: S,
  creationTime: S,
  direction: S,
});

export const TOOLS: ToolDef[] = [
  tool({
    name: 'request_payout',
    title: 'Request a payout',
    description:
      'Pay out ARS from the wallet to a CBU, CVU or alias. Every payout passes the owner’s policy: it is sent at once ' +
      '(status "submitted"), waits for the owner’s approval (status "pending_approval"; tell the user, do not retry), ' +
      'or is denied with reasons. idempotency_key is required: generate one per intended payout and REUSE THE SAME KEY ' +
      'when you retry after an error or timeout, so the payout can never happen twice.',
    input: Type.Object(
      {
        amount_ars: Type.Number({ description: 'Amount in ARS, at most 2 decimals, e.g. 1500.50' }),
        destination: Type.String({ minLength: 1, maxLength: 64, description: 'CBU or CVU (22 digits) or alias' }),
        destination_kind: Type.Optional(Type.Union([Type.Literal('CBU'), Type.Literal('CVU'), Type.Literal('ALIAS')], { description: 'Default CBU' })),
        note: Type.Optional(Type.String({ maxLength: 140, description: 'Free text shown on the receipt' })),
        idempotency_key: Type.String({ minLength: 1, maxLength: 255, description: 'Unique per intended payout; reuse it on retries' }),
      },
      { additionalProperties: false },
    ),
    output: Obj({
      id: S,
      status: S,
      decision: S,
      reasons: Type.Optional(Type.Array(S)),
      approval_id: Type.Optional(S),
      expires_in: Type.Optional(N),
      replayed: Type.Boolean({ description: 'true when this is the stored answer to an earlier call with the same key' }),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    run: async (ctx, who, a) => {
      const { idempotency_key, ...body } = a;
      const res = await requestPayout(ctx, who, body, idempotency_key);
      return { ...res.body, replayed: res.replayed };
    },
  }),
  tool({
    name: 'get_receipt',
    title: 'Get a payout receipt',
    description: 'The receipt of a payout: amounts, origin, destination and recipient, rail operation number, timestamps.',
    input: Type.Object({ payout_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
    output: Obj({ payout_id: S, status: S, amount_ars: N, currency: S, origin: Obj({}), destination: Obj({}) }),
    annotations: READ,
    run: async (ctx, who, a) => ({ ...(await getReceipt(ctx, who.userId, a.payout_id)) }),
  }),
  tool({
    name: 'list_recent_deposits',
    title: 'List recent transfers',
    description:
      'Recent transfer legs to and from the wallet’s CVU, newest first. Both directions are listed: check "direction" ' +
      '("credit" is money in).',
    input: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })) }, { additionalProperties: false }),
    output: Obj({ transfers: Type.Array(Transfer), count: Type.Integer() }),
    annotations: READ,
    run: async (ctx, who, a) => {
      const transfers = await listDeposits(ctx, who.userId, a.limit ?? 10);
      return { transfers, count: transfers.length };
    },
  }),
  tool({
    name: 'propose_threshold_change',
    title: 'Propose new limits',
    description:
      'Ask the owner to change spending limits. Nothing changes until the owner approves; on approval only the ' +
      'proposed fields change. Amounts in ARS; 0 disables a limit.',
    input: Type.Partial(Type.Object(ThresholdFields), { additionalProperties: false }),
    output: Obj({ approval_id: S, status: S, expires_at: S, expires_in: N, proposed: Obj({}) }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: async (ctx, who, a) => proposeThresholdChange(ctx, who, a),
  }),
  tool({
    name: 'get_balance',
    title: 'Get the balance',
    description: 'Available ARS balance of the wallet, as a decimal string.',
    input: Type.Object({}, { additionalProperties: false }),
    output: Obj({ asset: S, available: S }),
    annotations: READ,
    run: async (ctx, who) => getBalance(ctx, who.userId),
  }),
  tool({
    name: 'get_cvu',
    title: 'Get the CVU',
    description: 'The wallet’s CVU and alias, to receive money.',
    input: Type.Object({}, { additionalProperties: false }),
    output: Obj({ cvu: S, alias: S, asset: S }),
    annotations: READ,
    run: async (ctx, who) => ({ ...(await getCvu(ctx, who.userId)) }),
  }),
  tool({
    name: 'get_thresholds',
    title: 'Get the limits',
    description: 'The owner’s policy limits in ARS (0 = disabled) and the whitelist.',
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object(ThresholdFields),
    annotations: READ,
    run: async (ctx, who) => ({ ...(await getThresholds(ctx, who.userId)) }),
  }),
  tool({
    name: 'get_payout',
    title: 'Get a payout',
    description: 'One payout attempt with its status, decision and reasons.',
    input: Type.Object({ payout_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
    output: PayoutRecord,
    annotations: READ,
    run: async (ctx, who, a) => ({ ...(await getPayout(ctx, who.userId, a.payout_id)) }),
  }),
  tool({
    name: 'list_payouts',
    title: 'List payouts',
    description: 'Payout attempts, newest first. Pass next_cursor as cursor for more.',
    input: Type.Object(
      { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })), cursor: Type.Optional(Type.String({ maxLength: 64 })) },
      { additionalProperties: false },
    ),
    output: Obj({ withdraws: Type.Array(PayoutRecord), next_cursor: Nullable(S) }),
    annotations: READ,
    run: async (ctx, who, a) => listPayouts(ctx, who.userId, { limit: a.limit ?? 20, cursor: a.cursor }),
  }),
];
