import { createHmac, timingSafeEqual } from 'node:crypto';

/** Contract: `X-Svc-Signature: sha256=<hex HMAC-SHA256 of the raw body, keyed by the webhook secret>`. */
export const svcSignature = (secret: string, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * Standard Webhooks (D24): `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`. The key
 * is the secret's UTF-8 bytes (our secrets are chosen by the user, not `whsec_` base64 strings).
 */
export const standardSignature = (secret: string, id: string, timestamp: number, body: string): string =>
  `v1,${createHmac('sha256', secret).update(`${id}.${timestamp}.${body}`).digest('base64')}`;

export function signatureHeaders(
  secret: string,
  body: string,
  meta: { eventId: string; eventType: string; deliveryId: string; now: Date },
): Record<string, string> {
  const ts = Math.floor(meta.now.getTime() / 1000);
  return {
    'x-svc-signature': svcSignature(secret, body),
    'x-svc-event-id': meta.eventId,
    'x-svc-event-type': meta.eventType,
    'x-svc-delivery-id': meta.deliveryId,
    'x-svc-timestamp': String(ts),
    'webhook-id': meta.eventId,
    'webhook-timestamp': String(ts),
    'webhook-signature': standardSignature(secret, meta.eventId, ts, body),
  };
}

/** What a receiver does (README example): constant-time compare of the expected signature. */
export function verifySvcSignature(secret: string, rawBody: string, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(svcSignature(secret, rawBody));
  const got = Buffer.from(header);
  return expected.length === got.length && timingSafeEqual(expected, got);
}
