import type { AppContext } from '../../context.js';
import { compiledInsert } from '../../db/compiled.js';
import { isStoreUnavailable } from '../../db/store-errors.js';
import { canonicalDestination, type DestinationKind } from '../../shared/ar-identifiers.js';
import { AppError } from '../../shared/errors.js';
import { newId, randomFromPool } from '../../shared/ids.js';
import { availableChannels, createApproval, notifyPendingAfterCommit } from '../approvals/approvals.service.js';
import { requireScopeOf, type Principal } from '../auth/auth.service.js';
import type { Scope } from '../keys/key-controls.js';
import { writeAudit } from '../audit/audit.service.js';
import { recordEvent } from '../events/events.service.js';
import {
  claimInTransaction,
  completeClaim,
  effectiveKey,
  keyState,
  keyStateIn,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  newClaimToken,
  requestFingerprint,
  storedResponse,
  type ClaimRef,
  type KeyState,
} from '../idempotency/idempotency.service.js';
import { denialMessage } from '../policy/denial-message.js';
import type { PolicyResult } from '../policy/policy.js';
import { lockWalletForPayout } from '../wallet/wallet.locks.js';
import { buenosAiresDay } from './calendar.js';
import { afterGrace, createdBody, submitPayout, withdrawFailed } from './payout.lifecycle.js';
import { loadPayout, toPayoutView } from './payout.view.js';
import type { PayoutsTable } from './payouts.tables.js';
import { decidePayout, destinationKindOf, lookUpDestination, noChannelError, noWalletError } from './payout.decision.js';
import { addUsage } from './usage.js';

export interface PayoutRequest {
  amount_ars: number;
  destination: string;
  destination_kind?: DestinationKind;
  note?: string;
}

/**
 * What the caller gets back: the 201/202 body, and whether it is a replay of a stored answer (D18); or, replayed
 * only, the 502 of an attempt that failed (D37), which a caller that is not REST turns back into its error with
 * `replayedFailure`.
 */
export interface PayoutResponse {
  status: 201 | 202 | 502;
  body: Record<string, unknown>;
  replayed: boolean;
}

type Decided =
  | { kind: 'no_wallet' }
  | { kind: 'denied'; policy: PolicyResult }
  | { kind: 'no_channel'; policy: PolicyResult }
  | { kind: 'key'; state: KeyState }
  | { kind: 'pending'; body: Record<string, unknown>; approvalId: string }
  | { kind: 'allowed'; row: PayoutsTable };

const insertPayout = compiledInsert('payouts', {
  id: true, user_id: true, api_key_id: true, api_key_name: true, amount: true, destination: true, destination_kind: true, note: true,
  status: true, decision: true, decision_reasons: true, idempotency_key: true, rail_reference: true, provider_transfer_id: true,
  failure_reason: true, approval_id: true, origin_cvu: true, origin_name: true, recipient_name: true, recipient_legal_id: true,
  recipient_account: true, day_key: true, month_key: true, created_at: true, updated_at: true, approved_at: true, submitted_at: true,
  resolved_at: true, next_check_at: true, submission_started_at: true, submission_unknown_at: true, coelsa_id: true,
});

/** 15 base32 characters: BIND's `origin_id` takes at most 15 (docs/bank-rail.md). */
function railReference(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  return [...randomFromPool(15)].map((b) => alphabet[b % 32]).join('');
}

/** D18: a key is required, non-blank and at most 255 characters. */
export function checkIdempotencyKey(key: string | undefined): asserts key is string {
  if (key === undefined || key.trim() === '') {
    throw new AppError('MISSING_IDEMPOTENCY_KEY', 'Send an Idempotency-Key with every payout request; reuse it when you retry');
  }
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new AppError('INVALID_REQUEST', `Idempotency-Key: at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  }
}

/** The stored 502 of a replay (D37) as the error it was; null for a 201/202. */
export function replayedFailure(res: PayoutResponse): AppError | null {
  if (res.status !== 502) return null;
  const body = res.body as { message?: unknown; payout_id?: unknown; reason?: unknown };
  return withdrawFailed(String(body.payout_id), String(body.reason), String(body.message));
}

/** What an idempotency key that is not free answers (D18, D27, D37). */
function answerFromKey(state: Exclude<KeyState, { kind: 'free' }>): PayoutResponse {
  if (state.kind === 'replay') return { status: state.status as PayoutResponse['status'], body: state.body as Record<string, unknown>, replayed: true };
  if (state.kind === 'reused') {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for a different payout request; use a new key for a new payout');
  }
  throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry shortly');
}

/**
 * `POST /v1/withdraws` and MCP `request_payout`. A replay is answered from one read. Otherwise the destination
 * is resolved at the rail, then one transaction decides: the per-user lock (D16), the policy against usage
 * counters, the idempotency claim (kept only when there is an attempt), the attempt, its usage, audit row,
 * approval and event.
 * The allowed path then submits to the rail.
 */
export async function requestPayout(
  ctx: AppContext,
  who: Principal,
  input: PayoutRequest,
  idempotencyKey: string | undefined,
  opts: { approvalTtlSeconds?: number; approvalAtThreshold?: boolean; scope?: Scope } = {},
): Promise<PayoutResponse> {
  checkIdempotencyKey(idempotencyKey);
  const approvalTtlSeconds = Math.min(opts.approvalTtlSeconds ?? ctx.config.approvalTtlSeconds, ctx.config.approvalTtlSeconds);
  const kind = destinationKindOf(input);
  const destination = input.destination.trim();
  const keyHash = effectiveKey(who.userId, idempotencyKey);
  // An alias in another case is the same destination (D7), so the same request under its key.
  const fingerprint = requestFingerprint([input.amount_ars, canonicalDestination(destination), kind, input.note ?? null]);
  const early = await keyState(ctx, keyHash, fingerprint);
  if (early.kind !== 'free') return answerFromKey(early);

  const dest = await lookUpDestination(ctx, input, 'retry with the same Idempotency-Key');
  const resolved = dest.resolved;
  const claim: ClaimRef = { keyHash, token: newClaimToken() };
  const now = ctx.clock.now();
  const payoutId = newId('wd', now);
  const approvalId = newId('apr', now);

  const decided = await ctx.store.transaction(async (tx): Promise<Decided> => {
    const period = buenosAiresDay(now);
    // D16, D31: the per-user lock first, then what the policy reads (the key's usage too) under it; a simulation
    // reads the same through `decidePayout`.
    const wallet = await lockWalletForPayout(ctx.store, tx, who.userId);
    if (!wallet) return { kind: 'no_wallet' };
    const { policy, key } = await decidePayout(ctx, tx, who, wallet, period, { amountArs: input.amount_ars, dest, approvalAtThreshold: opts.approvalAtThreshold });
    // D31: the scope as the key has it now; the route checked it as the request's authentication found it.
    if (key) requireScopeOf({ ...who, controls: key.controls }, opts.scope ?? 'payouts:write');
    const pending = policy.decision === 'require_approval';
    const channels = pending ? await availableChannels(ctx, who.userId, tx) : [];
    // D18: a request about to end without an attempt first asks the key, under the lock: a duplicate of an attempt
    // committed since our first read answers as that attempt's key does (409, a replay), never with a denial or a
    // 503 that the attempt's own amount or a later pause caused. Only these paths pay the read.
    if (policy.decision === 'deny' || (pending && channels.length === 0)) {
      const held = await keyStateIn(tx, keyHash, fingerprint, now);
      if (held.kind !== 'free') return { kind: 'key', state: held };
    }
    if (policy.decision === 'deny') {
      await writeAudit(tx, ctx.clock, who, { action: 'payout.denied', data: { request: input, reasons: policy.reasons } });
      return { kind: 'denied', policy };
    }
    if (pending && channels.length === 0) {
      await writeAudit(tx, ctx.clock, who, { action: 'payout.approval_unavailable', data: { request: input, reasons: policy.reasons } });
      return { kind: 'no_channel', policy };
    }
    // The claim and its attempt exist together or not at all: a request that ends without an attempt leaves the
    // key as it was.
    const taken = await claimInTransaction(tx, { claim, userId: who.userId, fingerprint, payoutId, now });
    if (taken) return { kind: 'key', state: taken };

    const row: PayoutsTable = {
      id: payoutId,
      user_id: who.userId,
      api_key_id: who.keyId ?? null,
      api_key_name: who.keyName ?? null,
      amount: policy.amount!,
      destination,
      destination_kind: kind,
      note: input.note ?? null,
      status: pending ? 'pending_approval' : 'approved',
      decision: pending ? 'require_approval' : 'allow',
      decision_reasons: JSON.stringify(policy.reasons),
      idempotency_key: idempotencyKey,
      rail_reference: railReference(),
      provider_transfer_id: null,
      coelsa_id: null,
      failure_reason: null,
      approval_id: pending ? approvalId : null,
      origin_cvu: wallet.cvu,
      origin_name: wallet.legal_name,
      recipient_name: resolved?.holderName ?? null,
      recipient_legal_id: resolved?.holderLegalId ?? null,
      recipient_account: resolved?.accountNumber ?? null,
      day_key: period.day,
      month_key: period.month,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      approved_at: pending ? null : now.toISOString(),
      submitted_at: null,
      resolved_at: null,
      next_check_at: pending ? null : afterGrace(ctx, now),
      // D36: allowed means not paused, read under the per-user lock: claimed for submission with its decision.
      submission_started_at: pending ? null : now.toISOString(),
      submission_unknown_at: null,
    };
    await insertPayout.run(tx, row);
    await addUsage(tx, row, 1);
    await writeAudit(tx, ctx.clock, who, { action: 'payout.requested', subjectId: row.id, data: { decision: row.decision, reasons: policy.reasons, request: { amount_ars: input.amount_ars, destination, destination_kind: kind } } });
    if (pending) {
      await createApproval(ctx, tx, {
        id: approvalId,
        userId: who.userId,
        kind: 'payout',
        payoutId: row.id,
        who,
        channels: channels.map((c) => c.name),
        ttlSeconds: approvalTtlSeconds,
      });
    }
    await recordEvent(tx, ctx.clock, { userId: who.userId, type: 'payout.requested', data: toPayoutView(row) });
    if (!pending) return { kind: 'allowed', row };
    const body = {
      id: row.id,
      status: 'pending_approval',
      decision: 'require_approval',
      reasons: policy.reasons,
      approval_id: approvalId,
      expires_in: approvalTtlSeconds,
    };
    await completeClaim(tx, claim, 202, body);
    return { kind: 'pending', body, approvalId };
  });

  if (decided.kind === 'denied' || decided.kind === 'pending' || decided.kind === 'allowed') {
    ctx.metrics.payoutDecided(decided.kind === 'denied' ? 'deny' : decided.kind === 'pending' ? 'require_approval' : 'allow');
  }
  switch (decided.kind) {
    case 'no_wallet':
      throw noWalletError();
    case 'denied':
      throw new AppError('PAYOUT_DENIED', denialMessage(decided.policy.reasons), { reasons: decided.policy.reasons });
    case 'no_channel':
      throw noChannelError(decided.policy);
    case 'key':
      // A concurrent request with the same key got there first (between our first read and the claim).
      return answerFromKey(decided.state.kind === 'free' ? { kind: 'in_use' } : decided.state);
    case 'pending':
      // D42: committed, and its key already answers this 202, whatever the notice meets.
      await notifyPendingAfterCommit(ctx, decided.approvalId);
      return { status: 202, body: decided.body, replayed: false };
    case 'allowed':
      try {
        return await finishAllowed(ctx, claim, decided.row);
      } catch (err) {
        // D42: the attempt exists and is the follow-up job's to finish; a 503 would say nothing was kept. Its
        // answer is what it is now: approved, on its way (a retry with the key gets the final answer once stored).
        if (!isStoreUnavailable(err)) throw err;
        ctx.log.warn({ err, payout: decided.row.id }, 'the store failed after the payout was decided; the follow-up job finishes it');
        return { status: 201, body: createdBody(decided.row), replayed: false };
      }
  }
}

/**
 * The allowed path: submit now and answer 201 `submitted`, or 502 when the rail rejects it. When the rail's
 * answer is unknown, the attempt is answered as it stands (`approved`): an error would invite a retry and money
 * may have moved. If meanwhile the follow-up job finished the attempt, the caller gets the truth (D19).
 */
async function finishAllowed(ctx: AppContext, claim: ClaimRef, row: PayoutsTable): Promise<PayoutResponse> {
  const result = await submitPayout(ctx, row);
  if (result.kind === 'rejected') throw result.error;
  if (result.kind === 'submitted' && result.body) return { status: 201, body: result.body, replayed: false };
  if (result.kind === 'unknown') {
    const body = createdBody(row);
    if (await completeClaim(ctx.store.db, claim, 201, body)) return { status: 201, body, replayed: false };
  }
  // Someone else (the follow-up job) moved the attempt on: answer what the key or the attempt says now.
  const stored = await storedResponse(ctx.store.db, claim.keyHash);
  if (stored?.status === 502) throw withdrawFailed(row.id, String((stored.body as { reason?: unknown }).reason ?? 'rail_failed'), String((stored.body as { message?: unknown }).message));
  if (stored) return { status: stored.status as 201, body: stored.body as Record<string, unknown>, replayed: false };
  const now = (await loadPayout(ctx.store.db, row.id))!;
  if (now.status === 'failed') throw withdrawFailed(now.id, now.failure_reason ?? 'rail_failed');
  return { status: 201, body: createdBody(now), replayed: false };
}
