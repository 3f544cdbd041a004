import type { paths } from './schema';

/** Shorthands for the generated types: the JSON body of a path's response. */
type JsonOf<P extends keyof paths, M extends 'get' | 'post' | 'put', S extends number> = paths[P][M] extends {
  responses: { [K in S]: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

export type Payout = JsonOf<'/v1/withdraws/{id}', 'get', 200>;
export type OAuthInteraction = JsonOf<'/v1/oauth/interactions/{uid}', 'get', 200>;
export type PayoutList = JsonOf<'/v1/withdraws', 'get', 200>;
export type Approval = JsonOf<'/v1/approvals/{id}', 'get', 200>;
export type ApprovalList = JsonOf<'/v1/approvals', 'get', 200>;
export type ApiKey = JsonOf<'/v1/api-keys', 'get', 200>['api_keys'][number];
export type NewApiKey = JsonOf<'/v1/api-keys', 'post', 201>;
export type Thresholds = JsonOf<'/v1/thresholds', 'get', 200>;
export type Webhook = NonNullable<JsonOf<'/v1/webhook', 'get', 200>['webhook']>;
export type Delivery = JsonOf<'/v1/webhook/deliveries', 'get', 200>['deliveries'][number];
export type Deposit = JsonOf<'/v1/deposits', 'get', 200>['deposits'][number];
export type ActivityPage = JsonOf<'/v1/activity', 'get', 200>;
export type ActivityEntry = ActivityPage['entries'][number];
export type Channel = JsonOf<'/v1/approval-channels', 'get', 200>['channels'][number];
export type TelegramLink = JsonOf<'/v1/approval-channels/telegram', 'post', 201>;
export type Balance = JsonOf<'/v1/balance', 'get', 200>;
export type Cvu = JsonOf<'/v1/cvu', 'get', 200>;

export type PayoutStatus = 'pending_approval' | 'approved' | 'rejected' | 'expired' | 'submitted' | 'confirmed' | 'failed';
export const PAYOUT_STATUSES: PayoutStatus[] = ['pending_approval', 'approved', 'submitted', 'confirmed', 'rejected', 'expired', 'failed'];
/** Statuses a payout can still leave. */
export const isFinal = (s: string): boolean => ['confirmed', 'failed', 'rejected', 'expired'].includes(s);

/** The receipt's JSON form (D21; GET /v1/withdraws/{id}/receipt with Accept: application/json). */
export interface Receipt {
  payout_id: string;
  status: PayoutStatus;
  title: string;
  status_text: string;
  amount_ars: number;
  destination: {
    value: string;
    kind: string;
    account: string | null;
    institution: string | null;
    recipient_name: string | null;
    recipient_legal_id: string | null;
  };
  provider_transfer_id: string | null;
  coelsa_id: string | null;
  operation_id: string | null;
  api_key_name: string | null;
  note: string | null;
  decision: string;
  decision_reasons: string[];
  created_at: string;
  approved_at: string | null;
  submitted_at: string | null;
  resolved_at: string | null;
  approved_by: { by: 'policy' | 'owner'; via: string | null } | null;
  approval: { id: string; status: string; expires_at: string; decided_at: string | null; decided_via: string | null } | null;
  failure_reason: string | null;
  failure_reason_text: string | null;
}

/** D31 per-agent controls, as the key list returns them and PATCH /v1/api-keys/{id} takes them. */
export type KeyControls = Pick<ApiKey, 'scopes' | 'allowlist' | 'per_tx_limit_ars' | 'daily_limit_ars' | 'monthly_limit_ars' | 'expires_at'>;
export type KeyPatch = NonNullable<paths['/v1/api-keys/{id}']['patch']>['requestBody']['content']['application/json'];
export type Scope = ApiKey['scopes'][number];
export const SCOPES: readonly Scope[] = ['payouts:write', 'payouts:read', 'wallet:read', 'transfer:write', 'transactions:read', 'thresholds:read', 'thresholds:propose'];

/** D31 emergency stop. */
export type PauseState = JsonOf<'/v1/payouts/pause', 'get', 200>;
