import type { AppContext } from '../../context.js';
import { accountHolder } from '../../shared/bcra-entities.js';
import { centavosToArs } from '../../shared/money.js';
import { approvalDecisionOf, type ApprovalDecision } from '../approvals/approval-decision.js';
import { walletIdentityOf, type WalletIdentity } from '../wallet/wallet.identity.js';
import { requirePayoutOfUser } from './payout.view.js';
import type { PayoutStatus, PayoutsTable } from './payouts.tables.js';
import { failureText, maskAccount, statusTextOf, titleOf } from './receipt-text.js';

/**
 * D21: the receipt's data, shared by the HTML voucher, the PDF and MCP `get_receipt`. Timestamps stay ISO 8601
 * here; the renderings show them in Buenos Aires time. Numbers are whole here and masked only when printed.
 */
export interface Receipt {
  payout_id: string;
  status: PayoutStatus;
  /** "Comprobante de transferencia" only when confirmed; the outcome otherwise ("Transferencia rechazada" …). */
  title: string;
  status_text: string;
  amount_ars: number;
  currency: 'ARS';
  origin: { cvu: string; alias: string | null; holder_name: string; holder_legal_id: string };
  destination: {
    value: string;
    kind: string;
    /** The 22-digit account the payout goes to (an alias resolved), when known. */
    account: string | null;
    account_masked: string | null;
    account_type: 'CBU' | 'CVU' | null;
    /** BCRA entity code and the bank's name (CBU); the PSP code (CVU). */
    bank_code: string | null;
    bank_name: string | null;
    psp_code: string | null;
    /** What the voucher prints for the institution: the bank's name, or "Cuenta virtual (CVU) · PSP 0003". */
    institution: string | null;
    recipient_name: string | null;
    recipient_legal_id: string | null;
  };
  provider_transfer_id: string | null;
  /** D43: the transfer's Coelsa id when the rail gives one (BIND), the reference banks use for claims. */
  coelsa_id: string | null;
  /** The rail's operation number in the voucher style of Argentine transfers (upper-case alphanumeric). */
  operation_id: string | null;
  /** Our idempotent reference at the rail (D19; BIND `origin_id`, 15 characters). */
  reference: string;
  api_key_name: string | null;
  note: string | null;
  decision: string;
  decision_reasons: string[];
  created_at: string;
  approved_at: string | null;
  submitted_at: string | null;
  resolved_at: string | null;
  /** Who let it go ahead: the policy itself (`allow`) or the owner through a channel (D23). */
  approved_by: { by: 'policy' | 'owner'; via: string | null } | null;
  approval: Omit<ApprovalDecision, 'created_at'> | null;
  failure_reason: string | null;
  failure_reason_text: string | null;
}

export async function getReceipt(ctx: AppContext, userId: string, payoutId: string): Promise<Receipt> {
  const db = ctx.store.db;
  const p = await requirePayoutOfUser(db, userId, payoutId);
  const [holder, approval] = await Promise.all([walletIdentityOf(db, userId), p.approval_id ? approvalDecisionOf(db, p.approval_id) : null]);
  return toReceipt(p, holder, approval);
}

/**
 * The operation number as vouchers print it: the rail's transfer id without its type prefix, upper-cased
 * (`trf_01jd…` → `01JD…`). It stays reversible, so support can find the transfer from a printed voucher; a rail
 * that hands back the clearing house's own id is shown the same way.
 */
export function operationIdOf(providerTransferId: string | null): string | null {
  if (!providerTransferId) return null;
  const id = providerTransferId.replace(/^[a-z]+_/, '').replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  return id || null;
}

function destinationOf(p: PayoutsTable): Receipt['destination'] {
  const account = p.recipient_account ?? (p.destination_kind === 'ALIAS' ? null : p.destination);
  const holder = account ? accountHolder(account) : null;
  const bank = holder?.type === 'CBU' ? holder : null;
  const psp = holder?.type === 'CVU' ? holder : null;
  return {
    value: p.destination,
    kind: p.destination_kind,
    account,
    account_masked: account ? maskAccount(account) : null,
    account_type: holder?.type ?? null,
    bank_code: bank?.entityCode ?? null,
    bank_name: bank?.name ?? null,
    psp_code: psp?.pspCode ?? null,
    institution: bank
      ? (bank.name ?? `Entidad ${bank.entityCode} (código BCRA)`)
      : psp
        ? `Cuenta virtual (CVU) · PSP ${psp.pspCode}`
        : null,
    recipient_name: p.recipient_name,
    recipient_legal_id: p.recipient_legal_id,
  };
}

function approvedBy(p: PayoutsTable, a: ApprovalDecision | null): Receipt['approved_by'] {
  if (!p.approved_at) return null;
  if (p.decision === 'allow') return { by: 'policy', via: null };
  return { by: 'owner', via: a?.status === 'approved' ? a.decided_via : null };
}

export function toReceipt(p: PayoutsTable, holder: WalletIdentity | null, a: ApprovalDecision | null): Receipt {
  return {
    payout_id: p.id,
    status: p.status,
    title: titleOf(p.status),
    status_text: statusTextOf(p.status),
    amount_ars: centavosToArs(Number(p.amount)),
    currency: 'ARS',
    origin: {
      cvu: p.origin_cvu,
      // The alias is the wallet's current one; only shown while it still names the account that paid.
      alias: holder && holder.cvu === p.origin_cvu ? holder.alias : null,
      holder_name: p.origin_name,
      holder_legal_id: holder?.legal_id ?? '',
    },
    destination: destinationOf(p),
    provider_transfer_id: p.provider_transfer_id,
    coelsa_id: p.coelsa_id ?? null,
    operation_id: operationIdOf(p.provider_transfer_id),
    reference: p.rail_reference,
    api_key_name: p.api_key_name,
    note: p.note,
    decision: p.decision,
    decision_reasons: JSON.parse(p.decision_reasons) as string[],
    created_at: p.created_at,
    approved_at: p.approved_at,
    submitted_at: p.submitted_at,
    resolved_at: p.resolved_at,
    approved_by: approvedBy(p, a),
    approval: a ? { id: a.id, status: a.status, expires_at: a.expires_at, decided_at: a.decided_at, decided_via: a.decided_via } : null,
    failure_reason: p.failure_reason,
    failure_reason_text: failureText(p.failure_reason),
  };
}
