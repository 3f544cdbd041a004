import { Type } from '@sinclair/typebox';
import Negotiator from 'negotiator';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/auth.js';
import { AUTH_ERRORS, bearerSecurity, errors, StringEnum } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { renderReceiptHtml } from './receipt-html.js';
import { renderReceiptPdf } from './receipt-pdf.js';
import { ReceiptBody } from './receipt.schemas.js';
import { getReceipt } from './receipt.service.js';

type Format = 'html' | 'json' | 'pdf';

const MEDIA: Record<string, Format> = { 'text/html': 'html', 'application/json': 'json', 'application/pdf': 'pdf' };
/** Offered in this order: a wildcard Accept (any type) gets HTML, the default. */
const OFFERED = Object.keys(MEDIA);

/**
 * D21: `text/html` by default, `application/json` and `application/pdf` on request (Accept or `?format=`, which
 * wins). The Accept header is read as HTTP defines it (weights, wildcards, q=0 refusing), by `negotiator`; an
 * Accept that names none of ours gets the default.
 */
function negotiate(accept: string | undefined, format: Format | undefined): Format {
  if (format) return format;
  const best = new Negotiator({ headers: { accept } }).mediaType(OFFERED);
  return (best ? MEDIA[best] : undefined) ?? 'html';
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
          // An enum, not a union of literals: a wrong value is then answered with the formats there are.
          format: Type.Optional(StringEnum(['html', 'json', 'pdf'] as const, { description: 'overrides the Accept header' })),
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
