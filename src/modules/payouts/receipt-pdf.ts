import PDFDocument from 'pdfkit';
import type { Receipt } from './receipt.service.js';
import { drawText, lineHeight, registerFonts, textHeight, type TextStyle } from './receipt-pdf-text.js';
import { voucherOf } from './receipt-voucher.js';

const MARGIN = 48;
const LABEL_WIDTH = 150;
const GAP = 12;
const INK = '#1d2330';
const MUTED = '#5b6475';
const RULE = '#e3e6ec';
const TONES = { ok: '#1a7f4b', pending: '#a15c00', failed: '#b3261e' };

const style = (font: TextStyle['font'], size: number, color: string): TextStyle => ({ font, size, color });

/** D21: the voucher as an A4 PDF with embedded fonts, drawn from the same facts as the HTML one. */
export function renderReceiptPdf(r: Receipt): Promise<Buffer> {
  const v = voucherOf(r);
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: MARGIN, lang: 'es-AR', info: { Title: `${v.title} ${r.payout_id}`, Author: 'Billetera ARS' } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    registerFonts(doc);

    const left = MARGIN;
    const width = doc.page.width - 2 * MARGIN;
    const bottom = () => doc.page.height - MARGIN;
    const tone = TONES[v.tone];
    let y = MARGIN;

    /** A block that would cross the bottom margin starts a new page instead (a very long note). */
    const room = (h: number) => {
      if (y + h <= bottom()) return;
      doc.addPage();
      y = MARGIN;
    };
    const line = (text: string, s: TextStyle, after = 0) => {
      y += drawText(doc, text, left, y, width, s) + after;
    };

    doc.rect(0, 0, doc.page.width, 8).fill(tone);
    line('Billetera ARS · Entorno sandbox', style('text', 9, MUTED), 10);
    line(v.title, style('bold', 20, INK), 4);
    line(v.statusText, style('text', 10.5, tone), 14);
    line(v.amount, style('bold', 28, INK), 2);
    line(v.when, style('text', 11, MUTED), 10);

    const label = style('text', 9.5, MUTED);
    const value = style('text', 10.5, INK);
    for (const section of v.sections) {
      room(lineHeight(doc, value) * 3);
      y += 10;
      line(section.heading.toUpperCase(), style('bold', 9, tone), 4);
      for (const [k, val] of section.rows) {
        room(Math.max(textHeight(doc, k, LABEL_WIDTH, label), textHeight(doc, val, width - LABEL_WIDTH - GAP, value)) + 8);
        y += 4;
        const lh = drawText(doc, k, left, y + 1, LABEL_WIDTH, label);
        const vh = drawText(doc, val, left + LABEL_WIDTH + GAP, y, width - LABEL_WIDTH - GAP, value);
        y += Math.max(lh, vh) + 4;
        doc.moveTo(left, y).lineTo(left + width, y).lineWidth(0.5).strokeColor(RULE).stroke();
      }
    }

    y += 18;
    for (const f of v.footer) {
      room(lineHeight(doc, label));
      line(f, style('text', 8.5, MUTED), 1);
    }
    doc.end();
  });
}
