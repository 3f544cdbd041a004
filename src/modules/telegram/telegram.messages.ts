import { formatArs } from '../../shared/money.js';
import type { ApprovalNotice } from '../approvals/channels/channel.port.js';
import { changeLines, endedText, reasonsText } from '../approvals/channels/notice-text.js';

/** Approval messages in plain Spanish for the owner (D23). */
const when = new Intl.DateTimeFormat('es-AR', { timeZone: 'America/Argentina/Buenos_Aires', dateStyle: 'medium', timeStyle: 'short' });

/**
 * Text the owner did not write here (the agent's note, an agent's name, the holder the bank resolved) on one line:
 * D30 lets a note hold newlines, and in this message one would start a line that poses as one of its own fields
 * (`Monto: …`, `Destinatario: …`) or as an outcome.
 */
const inline = (s: string): string => s.replace(/\s*[\r\n\u0085\u2028\u2029]+\s*/g, ' · ').trim();

export function pendingText(n: ApprovalNotice): string {
  const agent = n.apiKeyName ? `Agente: ${inline(n.apiKeyName)}` : 'Pedido desde el panel';
  const expiry = `Vence: ${when.format(new Date(n.expiresAt))} (hora de Buenos Aires)`;
  if (n.payout) {
    const p = n.payout;
    return [
      '🔔 Aprobación requerida: pago',
      `Monto: ${formatArs(p.amount)}`,
      `Destino: ${inline(p.destination)} (${p.destinationKind})`,
      ...(p.recipientName ? [`Destinatario: ${inline(p.recipientName)}`] : []),
      `Motivo: ${reasonsText(p.reasons)}`,
      ...(p.note ? [`Concepto: ${inline(p.note)}`] : []),
      agent,
      expiry,
    ].join('\n');
  }
  const lines = changeLines(n.thresholdChange!).map((l) => `• ${l}`);
  return ['🔔 Aprobación requerida: cambio de límites', ...lines, agent, expiry].join('\n');
}

const OUTCOME: Record<string, string> = {
  approved: '✅ Aprobado',
  rejected: '❌ Rechazado',
  expired: '⌛ Vencido: no se respondió a tiempo, no se hizo nada',
};

/**
 * The owner approved, and the re-check at that moment ended the request instead (KYC, the cap, the destination; for
 * a proposal, limits the owner changed since).
 */
const endedByRecheck = (n: ApprovalNotice) =>
  `🚫 No se pudo aprobar: al revisarlo de nuevo algo lo impedía; el pedido se cerró ${endedText(n.thresholdChange ? 'threshold_change' : 'payout')} (el panel dice por qué)`;

export function resolvedText(n: ApprovalNotice): string {
  const outcome = n.status === 'rejected' && n.decidedVia === 'policy' ? endedByRecheck(n) : (OUTCOME[n.status] ?? n.status);
  return `${pendingText(n).replace(/^🔔 Aprobación requerida/, 'Solicitud')}\n\n${outcome}`;
}
