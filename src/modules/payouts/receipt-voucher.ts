import { formatArs } from '../../shared/money.js';
import type { Receipt } from './receipt.service.js';
import {
  accountKind,
  approvalReasonsText,
  formatCuit,
  formatWhen,
  isProofOfPayment,
  maskAccount,
  STATUS_LABELS,
  viaText,
} from './receipt-text.js';

/**
 * What the printable voucher says, in order: the HTML and PDF renderings draw this and nothing else, so both
 * carry the same facts as the JSON form (D21).
 */
export interface Voucher {
  title: string;
  statusText: string;
  tone: 'ok' | 'pending' | 'failed';
  amount: string;
  /** The moment the voucher is about: settlement or end for a final payout, the request otherwise. */
  when: string;
  sections: { heading: string; rows: [string, string][] }[];
  footer: string[];
}

type Row = [string, string];
const row = (label: string, value: string | null | undefined): Row[] => (value ? [[label, value]] : []);
const at = (iso: string | null) => (iso ? formatWhen(iso) : null);
const join = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join(' · ');

function operationNumber(r: Receipt): string {
  if (r.operation_id) return r.operation_id;
  if (r.status === 'pending_approval' || r.status === 'approved') return 'Se asigna al enviarla al banco';
  return 'No tiene: no llegó al banco';
}

function destinationRows(r: Receipt): Row[] {
  const d = r.destination;
  const type = d.account_type ?? (d.account ? accountKind(d.account) : null);
  return [
    ['Destinatario', d.recipient_name ?? '—'],
    ...row('CUIT/CUIL', d.recipient_name ? formatCuit(d.recipient_legal_id) : null),
    ...row(type === 'CVU' ? 'Entidad' : 'Banco', d.institution),
    ...row(type ?? 'Cuenta', d.account ? maskAccount(d.account) : null),
    ...row('Alias', d.kind === 'ALIAS' ? d.value : null),
  ];
}

/** The approval step as a person would tell it: by whom, through what, when; or why it did not happen. */
function approvalRows(r: Receipt): Row[] {
  const a = r.approval;
  const rows: Row[] = [...row('Requirió aprobación', r.decision === 'require_approval' ? approvalReasonsText(r.decision_reasons) : null)];
  if (r.approved_by?.by === 'policy') {
    rows.push(['Aprobada', join(at(r.approved_at), 'automáticamente, dentro de los límites configurados')]);
  } else if (r.approved_by?.by === 'owner') {
    rows.push(['Aprobada', join(at(r.approved_at), `por el titular de la cuenta ${viaText(r.approved_by.via)}`.trim())]);
  } else if (a?.status === 'rejected' && a.decided_via === 'policy') {
    rows.push(['Aprobación', join(at(a.decided_at), 'el titular la aprobó, pero no pasó la nueva verificación')]);
  } else if (a?.status === 'rejected') {
    rows.push(['Rechazada', join(at(a.decided_at), `por el titular de la cuenta ${viaText(a.decided_via)}`.trim())]);
  } else if (a?.status === 'expired' || r.status === 'expired') {
    rows.push(['Vencida', join(at(a?.decided_at ?? r.resolved_at), 'sin respuesta del titular')]);
  } else if (a?.status === 'pending') {
    rows.push(['Vence', at(a.expires_at)!]);
  }
  return rows;
}

function trailRows(r: Receipt): Row[] {
  return [
    ['Solicitada', at(r.created_at)!],
    ['Solicitada por', r.api_key_name ? `agente «${r.api_key_name}»` : 'titular (panel)'],
    ...approvalRows(r),
    ...row('Enviada al banco', at(r.submitted_at)),
    ...row('Acreditada', r.status === 'confirmed' ? at(r.resolved_at) : null),
    ...row('Falló', r.status === 'failed' ? at(r.resolved_at) : null),
    ...row('Motivo', r.failure_reason_text),
  ];
}

export function voucherOf(r: Receipt): Voucher {
  const final = r.status === 'confirmed' || r.status === 'failed' || r.status === 'rejected' || r.status === 'expired';
  return {
    title: r.title,
    statusText: r.status_text,
    tone: r.status === 'confirmed' ? 'ok' : final ? 'failed' : 'pending',
    amount: formatArs(Math.round(r.amount_ars * 100)),
    when: formatWhen((final && r.resolved_at) || r.created_at),
    sections: [
      {
        heading: 'Operación',
        rows: [
          ['Estado', STATUS_LABELS[r.status]],
          ['Número de operación', operationNumber(r)],
          ['Referencia', r.reference],
          ...row('ID Coelsa', r.coelsa_id),
          ['ID de la solicitud', r.payout_id],
          ...row('Concepto', r.note),
        ],
      },
      {
        heading: 'Origen',
        rows: [
          ['Titular', r.origin.holder_name],
          ['CUIT/CUIL', formatCuit(r.origin.holder_legal_id || null)],
          ['CVU', r.origin.cvu],
          ...row('Alias', r.origin.alias),
        ],
      },
      { heading: 'Destino', rows: destinationRows(r) },
      { heading: 'Seguimiento', rows: trailRows(r) },
    ],
    footer: [
      ...(isProofOfPayment(r.status) ? [] : ['Este documento no acredita un pago.']),
      'Horarios de Argentina (Buenos Aires, UTC-3).',
      'Entorno sandbox: operación de prueba, no mueve dinero real.',
    ],
  };
}
