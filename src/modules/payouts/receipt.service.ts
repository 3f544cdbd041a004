import PDFDocument from 'pdfkit';
import type { AppContext } from '../../context.js';
import { AppError } from '../../shared/errors.js';
import { centavosToArs, formatArs } from '../../shared/money.js';
import type { PayoutsTable } from './payouts.tables.js';

/** D21: the receipt's data, shared by the HTML voucher, the PDF and MCP `get_receipt`. */
export interface Receipt {
  payout_id: string;
  status: string;
  amount_ars: number;
  currency: 'ARS';
  origin: { cvu: string; holder_name: string; holder_legal_id: string };
  destination: { value: string; kind: string; account: string | null; recipient_name: string | null; recipient_legal_id: string | null };
  provider_transfer_id: string | null;
  api_key_name: string | null;
  note: string | null;
  created_at: string;
  approved_at: string | null;
  submitted_at: string | null;
  resolved_at: string | null;
  failure_reason: string | null;
}

export async function getReceipt(ctx: AppContext, userId: string, payoutId: string): Promise<Receipt> {
  const p = await ctx.store.db.selectFrom('payouts').selectAll().where('id', '=', payoutId).where('user_id', '=', userId).executeTakeFirst();
  if (!p) throw new AppError('NOT_FOUND', 'Payout not found');
  const w = await ctx.store.db.selectFrom('wallets').select(['legal_id']).where('user_id', '=', userId).executeTakeFirst();
  return toReceipt(p, w?.legal_id ?? '');
}

function toReceipt(p: PayoutsTable, originLegalId: string): Receipt {
  return {
    payout_id: p.id,
    status: p.status,
    amount_ars: centavosToArs(Number(p.amount)),
    currency: 'ARS',
    origin: { cvu: p.origin_cvu, holder_name: p.origin_name, holder_legal_id: originLegalId },
    destination: {
      value: p.destination,
      kind: p.destination_kind,
      account: p.recipient_account,
      recipient_name: p.recipient_name,
      recipient_legal_id: p.recipient_legal_id,
    },
    provider_transfer_id: p.provider_transfer_id,
    api_key_name: p.api_key_name,
    note: p.note,
    created_at: p.created_at,
    approved_at: p.approved_at,
    submitted_at: p.submitted_at,
    resolved_at: p.resolved_at,
    failure_reason: p.failure_reason,
  };
}

const STATUS_ES: Record<string, string> = {
  pending_approval: 'Pendiente de aprobación',
  approved: 'Aprobada',
  rejected: 'Rechazada',
  expired: 'Vencida',
  submitted: 'Enviada',
  confirmed: 'Acreditada',
  failed: 'Fallida',
};

const dateFmt = new Intl.DateTimeFormat('es-AR', {
  timeZone: 'America/Argentina/Buenos_Aires',
  dateStyle: 'medium',
  timeStyle: 'medium',
});
const when = (iso: string | null) => (iso ? `${dateFmt.format(new Date(iso))} (hora de Buenos Aires)` : '—');
const cuit = (s: string | null) => (s && s.length === 11 ? `${s.slice(0, 2)}-${s.slice(2, 10)}-${s.slice(10)}` : (s ?? '—'));

/** Label/value rows in voucher order, shared by the HTML and PDF renderings. */
function rows(r: Receipt): [string, string][] {
  return [
    ['Estado', STATUS_ES[r.status] ?? r.status],
    ['Fecha de solicitud', when(r.created_at)],
    ['Fecha de envío', when(r.submitted_at)],
    ['Fecha de resolución', when(r.resolved_at)],
    ['Cuenta de origen (CVU)', r.origin.cvu],
    ['Titular de origen', `${r.origin.holder_name} · CUIT/CUIL ${cuit(r.origin.holder_legal_id)}`],
    [`Destino (${r.destination.kind})`, r.destination.value],
    ...(r.destination.account && r.destination.account !== r.destination.value
      ? ([['Cuenta de destino', r.destination.account]] as [string, string][])
      : []),
    ['Destinatario', r.destination.recipient_name ? `${r.destination.recipient_name} · CUIT/CUIL ${cuit(r.destination.recipient_legal_id)}` : '—'],
    ['N.º de operación', r.provider_transfer_id ?? '—'],
    ['Referencia', r.payout_id],
    ['Solicitada por', r.api_key_name ? `agente «${r.api_key_name}»` : 'titular (panel)'],
    ...(r.note ? ([['Concepto', r.note]] as [string, string][]) : []),
    ...(r.failure_reason ? ([['Motivo del rechazo', r.failure_reason]] as [string, string][]) : []),
  ];
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderReceiptHtml(r: Receipt): string {
  const amount = formatArs(Math.round(r.amount_ars * 100));
  const body = rows(r)
    .map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`)
    .join('\n        ');
  return `<!doctype html>
<html lang="es-AR">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Comprobante de transferencia ${esc(r.payout_id)}</title>
  <style>
    body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #f4f5f7; color: #1d2330; margin: 0; padding: 32px 16px; }
    .voucher { max-width: 560px; margin: 0 auto; background: #fff; border-radius: 12px; box-shadow: 0 1px 4px rgba(0,0,0,.08); padding: 32px; }
    h1 { font-size: 18px; margin: 0 0 4px; }
    .sub { color: #5b6475; font-size: 13px; margin-bottom: 24px; }
    .amount { font-size: 34px; font-weight: 700; margin: 8px 0 24px; }
    table { width: 100%; border-collapse: collapse; font-size: 14px; }
    th { text-align: left; color: #5b6475; font-weight: 500; padding: 8px 12px 8px 0; vertical-align: top; width: 42%; }
    td { padding: 8px 0; border-bottom: 1px solid #eceef2; word-break: break-word; }
    .foot { margin-top: 24px; font-size: 12px; color: #7a8294; }
    @media print { body { background: #fff; padding: 0; } .voucher { box-shadow: none; } }
  </style>
</head>
<body>
  <main class="voucher">
    <h1>Comprobante de transferencia</h1>
    <div class="sub">Entorno sandbox · ARS</div>
    <div class="amount">${esc(amount)}</div>
    <table>
      <tbody>
        ${body}
      </tbody>
    </table>
    <p class="foot">Comprobante emitido por el servicio de pagos. Operación de prueba (sandbox): no mueve dinero real.</p>
  </main>
</body>
</html>
`;
}

export function renderReceiptPdf(r: Receipt): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: `Comprobante ${r.payout_id}` } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.font('Helvetica-Bold').fontSize(18).text('Comprobante de transferencia');
    doc.font('Helvetica').fontSize(10).fillColor('#5b6475').text('Entorno sandbox · ARS').moveDown();
    doc.font('Helvetica-Bold').fontSize(28).fillColor('#1d2330').text(formatArs(Math.round(r.amount_ars * 100))).moveDown(0.5);
    for (const [k, v] of rows(r)) {
      doc.font('Helvetica').fontSize(9).fillColor('#5b6475').text(k);
      doc.font('Helvetica').fontSize(11).fillColor('#1d2330').text(v).moveDown(0.4);
    }
    doc.moveDown().fontSize(8).fillColor('#7a8294').text('Operación de prueba (sandbox): no mueve dinero real.');
    doc.end();
  });
}
