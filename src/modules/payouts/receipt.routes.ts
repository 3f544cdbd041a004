import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/auth.js';
import { AUTH_ERRORS, bearerSecurity, errors } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { renderReceiptHtml } from './receipt-html.js';
import { renderReceiptPdf } from './receipt-pdf.js';
import { ReceiptBody } from './receipt.schemas.js';
import { getReceipt } from './receipt.service.js';

type Format = 'html' | 'json' | 'pdf';

const MEDIA: Record<Format, string> = { html: 'text/html', json: 'application/json', pdf: 'application/pdf' };

/**
 * D21: `text/html` by default, `application/json` and `application/pdf` on request (Accept or `?format=`, which
 * wins). The Accept header is read as HTTP defines it (RFC 9110 §12.5.1): each format takes the weight of the most
 * specific range that matches it, a weight of 0 refuses it, and the highest weight wins; among equals, the format
 * named first. An Accept that names none of ours gets the default.
 */
function negotiate(accept: string | undefined, format: Format | undefined): Format {
  if (format) return format;
  const ranges = (accept ?? '').split(',').map((part, position) => {
    const [range = '', ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    const q = params.find((x) => /^q\s*=/.test(x));
    const weight = q === undefined ? 1 : Number(q.slice(q.indexOf('=') + 1).trim());
    return { range, weight: Number.isFinite(weight) ? weight : 0, position };
  });
  const best = (Object.keys(MEDIA) as Format[]).flatMap((f) => {
    const [type] = MEDIA[f].split('/');
    // Most specific first: the exact type, then `type/*`, then `*/*`.
    const match =
      ranges.find((r) => r.range === MEDIA[f]) ?? ranges.find((r) => r.range === `${type}/*`) ?? ranges.find((r) => r.range === '*/*');
    if (!match || match.weight <= 0) return [];
    const named = match.range === MEDIA[f] ? match.position : Number.MAX_SAFE_INTEGER;
    return [{ f, weight: match.weight, named }];
  });
  best.sort((x, y) => y.weight - x.weight || x.named - y.named);
  return best[0]?.f ?? 'html';
}

export function receiptRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v1/withdraws/:id/receipt',
    {
      config: { access: { scope: 'payouts:read' } },
      schema: {
        tags: ['payouts'],
        security: bearerSecurity,
        operationId: 'getReceipt',
        summary: 'Receipt of a payout: HTML voucher, JSON or PDF',
        description:
          'A printable Argentine transfer voucher (`text/html`, the default), its data (`application/json`) or a PDF (`application/pdf`). Choose with the `Accept` header or with `?format=`, which wins. Available in every status; the title says the outcome.',
        params: Type.Object({ id: Type.String({ maxLength: 64, description: 'the payout id (`wd_…`)' }) }),
        querystring: Type.Object({
          format: Type.Optional(
            Type.Union([Type.Literal('html'), Type.Literal('json'), Type.Literal('pdf')], { description: 'overrides the Accept header' }),
          ),
        }),
        response: {
          200: {
            description: 'The receipt in the negotiated format',
            content: {
              'text/html': { schema: Type.String({ description: 'a self-contained HTML page' }) },
              'application/json': { schema: ReceiptBody },
              'application/pdf': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'the PDF voucher' }) },
            },
          },
          ...errors('INSUFFICIENT_SCOPE', ...AUTH_ERRORS, 'INVALID_REQUEST', 'NOT_FOUND'),
        },
      },
    },
    async (request, reply) => {
      const receipt = await getReceipt(ctx, principalOf(request).userId, request.params.id);
      const fmt = negotiate(request.headers.accept, request.query.format);
      if (fmt === 'json') return reply.type('application/json').send(receipt);
      if (fmt === 'pdf') {
        return reply
          .type('application/pdf')
          .header('content-disposition', `inline; filename="comprobante-${receipt.payout_id}.pdf"`)
          .send(await renderReceiptPdf(receipt));
      }
      return reply.type('text/html; charset=utf-8').send(renderReceiptHtml(receipt));
    },
  );
}
