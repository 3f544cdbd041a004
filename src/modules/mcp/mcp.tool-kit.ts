import { Type, type ObjectOptions, type Static, type TProperties, type TSchema } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { OwnerText } from '../../http/owner-text.js';
import type { Principal } from '../auth/auth.service.js';
import type { Scope } from '../keys/key-controls.js';

/**
 * An MCP tool: schemas for the model, hints for the client, and a thin call into the service functions.
 * `output` is an object schema (MCP 2025-06-18: outputSchema must have `type: "object"`) that describes the
 * `structuredContent` of a successful call exactly; failures are `isError` results without structuredContent.
 */
export interface ToolDef<I extends TSchema = TSchema> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: TSchema & { type: 'object' };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  /** D31: the key scope the tool needs; a key without it neither sees nor calls the tool. */
  scope: Scope;
  run(ctx: AppContext, who: Principal, args: Static<I>): Promise<Record<string, unknown>>;
}

export const tool = <I extends TSchema>(t: ToolDef<I>): ToolDef => t as unknown as ToolDef;
/** Reads: nothing changes, asking twice is harmless, and the domain is this wallet only. */
export const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const S = Type.String();
export const N = Type.Number();
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export const NS = Nullable(S);
/** Timestamps this service writes (`toISOString()`); always with a zone. */
export const Time = Type.String({ format: 'date-time' });
/** Every output object is closed: a field added to a service view must be added here too (mcp.tools.test.ts). */
export const Exact = <P extends TProperties>(props: P, opts: ObjectOptions = {}) => Type.Object(props, { ...opts, additionalProperties: false });
export const Enum = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(values.map((v) => Type.Literal(v)), description ? { description } : {});

export const DestinationKind = Enum(['CBU', 'CVU', 'ALIAS'] as const);

/** D40: what a payout's body holds, the same for request_payout and simulate_payout (which must agree). */
export const PayoutFields = {
  amount_ars: Type.Number({ description: 'Amount in ARS, at most 2 decimals, e.g. 1500.50' }),
  destination: Type.String({ minLength: 1, maxLength: 64, description: 'CBU or CVU (22 digits) or alias' }),
  destination_kind: Type.Optional({
    ...DestinationKind,
    description: 'Inferred when omitted: 22 digits starting with 000 = CVU, other 22 digits = CBU, anything else = alias',
  }),
  note: Type.Optional(OwnerText({ maxLength: 140, description: 'Free text shown on the receipt' })),
};
