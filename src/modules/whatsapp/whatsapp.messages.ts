import { formatArs } from '../../shared/money.js';
import type { ApprovalNotice } from '../approvals/channels/channel.port.js';
import { changeLines, deniedOnApproveText, reasonsText } from '../approvals/channels/notice-text.js';

/**
 * The four body parameters of the approval template (D45), in its order: {{1}} what (the amount), {{2}} to whom
 * (the holder the bank resolved, else the destination), {{3}} why, {{4}} who asked; for an agent's proposal of
 * limits, the two of the limits template: {{1}} what would change, {{2}} who proposes it. WhatsApp refuses parameters
 * with newlines, tabs or more than four spaces in a row (a 132xxx error), so each is one tidy line.
 */
export function templateParams(n: ApprovalNotice): string[] {
  const agent = n.apiKeyName ? `el agente «${n.apiKeyName}»` : 'vos, desde el panel';
  if (n.payout) {
    const p = n.payout;
    const to = p.recipientName ? `${p.recipientName} (${p.destinationKind} ${p.destination})` : `${p.destination} (${p.destinationKind})`;
    return [formatArs(p.amount), to, reasonsText(p.reasons), agent].map(oneLine);
  }
  // The limits template (WHATSAPP_LIMITS_TEMPLATE): {{1}} what would change, {{2}} who proposes it.
  return [changeLines(n.thresholdChange!).join('; '), agent].map(oneLine);
}

const oneLine = (s: string): string => {
  // Every line break Unicode has (as on Telegram), not only \r and \n: a template parameter takes none of them.
  const t = s.replace(/[\r\n\t\v\f\u0085\u2028\u2029]+/g, ' · ').replace(/ {2,}/g, ' ').trim();
  return (t.length > 300 ? `${t.slice(0, 299)}…` : t) || '—';
};

/** Button payloads carry only the verb and the opaque approval id, never the amount. */
export const buttonPayload = (verb: 'a' | 'r', approvalId: string): string => `${verb}:${approvalId}`;
export const BUTTON_PAYLOAD = /^([ar]):(apr_[0-9a-z]+)$/;

const subject = (n: { payout?: ApprovalNotice['payout'] }): string =>
  n.payout ? `el pago de ${formatArs(n.payout.amount)}${n.payout.recipientName ? ` a ${n.payout.recipientName}` : ''}` : 'el cambio de límites';

/** The answer to a button press, by outcome. */
export const answerText = {
  approved: (n: ApprovalNotice) => `✅ Aprobado: ${subject(n)} ${n.payout ? 'sale ahora hacia el banco' : 'ya rige'}.`,
  rejected: (n: ApprovalNotice) => `❌ Rechazado: ${subject(n)} no se hará.`,
  expired: '⌛ Vencido: ya no se puede decidir; no se hizo nada.',
  alreadyDecided: (status: string) => `Esta solicitud ya estaba decidida (${STATUS[status] ?? status}); no cambió nada.`,
  paused: '⏸ Los pagos están pausados con el freno de emergencia: no se puede aprobar. Podés rechazarlo, o reanudar los pagos desde el panel.',
  denied: (reasons: string[], kind: string) => `🚫 ${deniedOnApproveText(reasons, kind)}`,
  notAllowed: 'Este número no puede decidir esa solicitud.',
  unknown: 'No reconocimos ese botón.',
  swappedButtons: 'Los botones de este mensaje están en otro orden que el esperado: no se decidió nada. Decidí desde el panel.',
  failed: 'No se pudo completar ahora; probá desde el panel.',
  linked: '✅ Listo: vas a recibir aquí las aprobaciones de pagos, con botones para aprobar o rechazar.',
  badCode: 'El código no es válido o venció. Generá uno nuevo desde el panel (Canales de aprobación → WhatsApp).',
  tooManyCodes: 'Demasiados códigos incorrectos desde este número. Esperá 15 minutos y generá uno nuevo desde el panel (Canales de aprobación → WhatsApp).',
};

const STATUS: Record<string, string> = { approved: 'aprobada', rejected: 'rechazada', expired: 'vencida', pending: 'pendiente' };

/** `+54 •••• 1234`: enough for the owner to recognise the number, not enough to read it off a screen. */
export const maskPhone = (waId: string): string => `+${waId.slice(0, 2)} •••• ${waId.slice(-4)}`;
