import type { Receipt } from './receipt.service.js';
import { voucherOf } from './receipt-voucher.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const TONES = { ok: '#1a7f4b', pending: '#a15c00', failed: '#b3261e' };

/** D21: the default rendering, a printable voucher; every value is escaped (notes and names come from outside). */
export function renderReceiptHtml(r: Receipt): string {
  const v = voucherOf(r);
  const sections = v.sections
    .map(
      (s) => `<section>
      <h2>${esc(s.heading)}</h2>
      <table><tbody>
        ${s.rows.map(([k, val]) => `<tr><th>${esc(k)}</th><td>${esc(val)}</td></tr>`).join('\n        ')}
      </tbody></table>
    </section>`,
    )
    .join('\n    ');
  return `<!doctype html>
<html lang="es-AR">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${esc(v.title)} ${esc(r.payout_id)}</title>
  <style>
    body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif, "Noto Emoji"; background: #f4f5f7; color: #1d2330; margin: 0; padding: 32px 16px; }
    .voucher { max-width: 560px; margin: 0 auto; background: #fff; border-radius: 12px; box-shadow: 0 1px 4px rgba(0,0,0,.08); padding: 32px; border-top: 6px solid ${TONES[v.tone]}; }
    h1 { font-size: 20px; margin: 0 0 4px; }
    .status { color: ${TONES[v.tone]}; font-size: 14px; margin: 0 0 16px; }
    .amount { font-size: 34px; font-weight: 700; margin: 8px 0 2px; }
    .when { color: #5b6475; font-size: 14px; margin-bottom: 16px; font-variant-numeric: tabular-nums; }
    h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: ${TONES[v.tone]}; margin: 20px 0 4px; }
    table { width: 100%; border-collapse: collapse; font-size: 14px; }
    th { text-align: left; color: #5b6475; font-weight: 500; padding: 7px 12px 7px 0; vertical-align: top; width: 40%; }
    td { padding: 7px 0; border-bottom: 1px solid #eceef2; word-break: break-word; white-space: pre-line; }
    .foot { margin-top: 24px; font-size: 12px; color: #7a8294; }
    .foot p { margin: 2px 0; }
    @media print { body { background: #fff; padding: 0; } .voucher { box-shadow: none; } }
  </style>
</head>
<body>
  <main class="voucher">
    <h1>${esc(v.title)}</h1>
    <p class="status">${esc(v.statusText)}</p>
    <div class="amount">${esc(v.amount)}</div>
    <div class="when">${esc(v.when)}</div>
    ${sections}
    <div class="foot">${v.footer.map((f) => `<p>${esc(f)}</p>`).join('')}</div>
  </main>
</body>
</html>
`;
}
