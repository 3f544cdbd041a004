import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { forUpdate, type Tx } from '../../db/database.js';
import { isValidDestination, type DestinationKind } from '../../shared/ar-identifiers.js';
import { AppError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { availableChannels, createApproval, notifyPending } from '../approvals/approvals.service.js';
import type { Principal } from '../auth/auth.service.js';
import { writeAudit } from '../audit/audit.service.js';
import { recordEvent } from '../events/events.service.js';
import {
  attachPayout,
  claimKey,
  completeClaim,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  releaseKey,
  storedResponse,
} from '../idempotency/idempotency.service.js';
import { evaluatePolicy, type PolicyResult } from '../policy/policy.js';
import type { ResolvedAccount } from '../rail/rail.port.js';
import { loadThresholds } from '../thresholds/thresholds.service.js';
import { requireWallet } from '../wallet/wallet.service.js';
import { buenosAiresDay } from './calendar.js';
import { createdBody, submitPayout, SUBMISSION_GRACE_MS } from './payout.lifecycle.js';
import { toPayoutView } from './payout.view.js';
import { COMMITTED_STATUSES, type PayoutsTable } from './payouts.tables.js';

export interface PayoutRequest {
  amount_ars: number;
  destination: string;
  destination_kind?: DestinationKind;
  note?: string;
}

/** What the caller gets back: the 201/202 body, and whether it is a replay of a stored answer (D18). */
export interface PayoutResponse {
  status: 201 | 202;
  body: Record<string, unknown>;
  replayed: boolean;
}

type Decided =
  | { kind: 'denied'; policy: PolicyResult }
  | { kind: 'no_channel'; policy: PolicyResult }
  | { kind: 'pending'; body: Record<string, unknown>; approvalId: string }
  | { kind: 'allowed'; payoutId: string };

/** 15 base32 characters: BIND's `origin_id` takes at most 15 (docs/bank-rail.md). */
function railReference(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  return [...randomBytes(15)].map((b) => alphabet[b % 32]).join('');
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

/**
 * `POST /v1/withdraws` and MCP `request_payout`: idempotency claim, policy under a per-user lock, the attempt
 * and its events in one transaction, then (allowed path) submission to the rail.
 */
export async function requestPayout(
  ctx: AppContext,
  who: Principal,
  input: PayoutRequest,
  idempotencyKey: string | undefined,
): Promise<PayoutResponse> {
  checkIdempotencyKey(idempotencyKey);
  const claim = await claimKey(ctx, who.userId, idempotencyKey);
  if (claim.kind === 'replay') return { status: claim.status as 201 | 202, body: claim.body as Record<string, unknown>, replayed: true };
  if (claim.kind === 'in_use') {
    throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry shortly');
  }
  const keyHash = claim.keyHash;
  try {
    const wallet = await requireWallet(ctx, who.userId);
    const kind: DestinationKind = input.destination_kind ?? 'CBU';
    const destination = input.destination.trim();
    const resolved = await resolveDestination(ctx, kind, destination);
    const channels = await availableChannels(ctx, who.userId);

    const decided = await ctx.store.db.transaction().execute(async (tx): Promise<Decided> => {
      // D16: one payout of a user at a time decides against the limits, so concurrent payouts cannot jointly
      // pass a limit. PostgreSQL: the wallet row lock; SQLite: the transaction holds the only connection.
      await forUpdate(ctx.store, tx.selectFrom('wallets').select('user_id').where('user_id', '=', who.userId)).execute();
      const now = ctx.clock.now();
      const day = buenosAiresDay(now);
      const policy = evaluatePolicy({
        amountArs: input.amount_ars,
        destination,
        destinationKind: kind,
        destinationAliases: resolved ? [resolved.accountNumber] : [],
        destinationExists: resolved !== null || !isValidDestination(kind, destination) ? undefined : false,
        thresholds: await loadThresholds(ctx, tx, who.userId),
        usage: await usage(tx, who.userId, day),
        kycStatus: (await tx.selectFrom('wallets').select('kyc_status').where('user_id', '=', who.userId).executeTakeFirstOrThrow()).kyc_status,
        absoluteCap: Math.round(ctx.config.absoluteCapArs * 100),
      });
      if (policy.decision === 'deny') {
        await writeAudit(tx, ctx.clock, who, { action: 'payout.denied', data: { request: input, reasons: policy.reasons } });
        return { kind: 'denied', policy };
      }
      if (policy.decision === 'require_approval' && channels.length === 0) {
        await writeAudit(tx, ctx.clock, who, { action: 'payout.approval_unavailable', data: { request: input, reasons: policy.reasons } });
        return { kind: 'no_channel', policy };
      }
      const pending = policy.decision === 'require_approval';
      const row: PayoutsTable = {
        id: newId('wd', now),
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
        failure_reason: null,
        approval_id: null,
        origin_cvu: wallet.cvu,
        origin_name: wallet.legal_name,
        recipient_name: resolved?.holderName ?? null,
        recipient_legal_id: resolved?.holderLegalId ?? null,
        recipient_account: resolved?.accountNumber ?? null,
        day_key: day.day,
        month_key: day.month,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        approved_at: pending ? null : now.toISOString(),
        submitted_at: null,
        resolved_at: null,
        next_check_at: pending ? null : new Date(now.getTime() + SUBMISSION_GRACE_MS).toISOString(),
      };
      await tx.insertInto('payouts').values(row).execute();
      await attachPayout(tx, keyHash, row.id);
      await writeAudit(tx, ctx.clock, who, { action: 'payout.requested', subjectId: row.id, data: { decision: row.decision, reasons: policy.reasons } });
      if (!pending) {
        await recordEvent(tx, ctx.clock, { userId: who.userId, type: 'payout.requested', data: toPayoutView(row) });
        return { kind: 'allowed', payoutId: row.id };
      }
      const approval = await createApproval(ctx, tx, {
        userId: who.userId,
        kind: 'payout',
        payoutId: row.id,
        who,
        channels: channels.map((c) => c.name),
      });
      await tx.updateTable('payouts').set({ approval_id: approval.id }).where('id', '=', row.id).execute();
      await recordEvent(tx, ctx.clock, { userId: who.userId, type: 'payout.requested', data: toPayoutView({ ...row, approval_id: approval.id }) });
      const body = {
        id: row.id,
        status: 'pending_approval',
        decision: 'require_approval',
        reasons: policy.reasons,
        approval_id: approval.id,
        expires_in: ctx.config.approvalTtlSeconds,
      };
      await completeClaim(tx, { keyHash }, 202, body);
      return { kind: 'pending', body, approvalId: approval.id };
    });

    switch (decided.kind) {
      case 'denied':
        await releaseKey(ctx.store.db, keyHash);
        throw new AppError('PAYOUT_DENIED', `Payout denied: ${decided.policy.reasons.join(', ')}`, { reasons: decided.policy.reasons });
      case 'no_channel':
        await releaseKey(ctx.store.db, keyHash);
        throw new AppError('APPROVAL_NOT_CONFIGURED', 'This payout needs approval but no approval channel is available', {
          reasons: decided.policy.reasons,
        });
      case 'pending':
        await notifyPending(ctx, decided.approvalId);
        return { status: 202, body: decided.body, replayed: false };
      case 'allowed':
        return await finishAllowed(ctx, keyHash, decided.payoutId);
    }
  } catch (e) {
    await releaseKey(ctx.store.db, keyHash).catch(() => {});
    throw e;
  }
}

/** The allowed path: submit now and answer 201 `submitted`, or 502 when the rail rejects it. */
async function finishAllowed(ctx: AppContext, keyHash: string, payoutId: string): Promise<PayoutResponse> {
  const result = await submitPayout(ctx, payoutId);
  if (result.kind === 'rejected') {
    throw new AppError('WITHDRAW_FAILED', `The bank rail rejected the payout: ${result.message}`, {
      payout_id: payoutId,
      reason: result.reason,
    });
  }
  const stored = await storedResponse(ctx.store.db, keyHash);
  if (stored) return { status: stored.status as 201, body: stored.body as Record<string, unknown>, replayed: false };
  // Outcome unknown: money may have moved, so this is not an error the caller should retry into a second
  // attempt. Answer with the attempt as it stands; the follow-up job reconciles it.
  const row = await ctx.store.db.selectFrom('payouts').selectAll().where('id', '=', payoutId).executeTakeFirstOrThrow();
  const body = createdBody(row);
  await completeClaim(ctx.store.db, { keyHash }, 201, body);
  return { status: 201, body, replayed: false };
}

async function resolveDestination(ctx: AppContext, kind: DestinationKind, destination: string): Promise<ResolvedAccount | null> {
  if (!isValidDestination(kind, destination)) return null;
  try {
    return await ctx.rail.resolve(kind, destination);
  } catch (err) {
    ctx.log.warn({ err }, 'rail resolve failed');
    throw new AppError('RAIL_UNAVAILABLE', 'The bank rail is not answering; retry with the same Idempotency-Key');
  }
}

/** D16: centavos in committed attempts today and this month (Buenos Aires calendar). */
async function usage(tx: Tx, userId: string, day: { day: string; month: string }) {
  const sum = async (col: 'day_key' | 'month_key', value: string) => {
    const r = await tx
      .selectFrom('payouts')
      .select(sql<number>`coalesce(sum(amount), 0)`.as('total'))
      .where('user_id', '=', userId)
      .where(col, '=', value)
      .where('status', 'in', COMMITTED_STATUSES)
      .executeTakeFirstOrThrow();
    return Number(r.total);
  };
  return { day: await sum('day_key', day.day), month: await sum('month_key', day.month) };
}

