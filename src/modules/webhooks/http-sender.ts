import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isBlockedAddress } from './address-guard.js';
import type { SendResult, WebhookSender } from './sender.port.js';

/** Bytes of a receiver's answer body read (and discarded) before the connection is cut. */
const MAX_DRAINED_BYTES = 64 * 1024;
/** How long a receiver's answer body may take after its status line before the connection is cut. */
const BODY_GRACE_MS = 1_000;

/**
 * The production sender. The address is checked at connect time, after DNS, so a hostname that resolves (or
 * re-resolves) to a private address is refused (D24 SSRF guard); redirects are not followed.
 */
export function httpSender(opts: { allowPrivateNetworks: boolean }): WebhookSender {
  const guardedLookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as LookupAddress[];
      if (!opts.allowPrivateNetworks && list.some((a) => isBlockedAddress(a.address))) {
        return callback(Object.assign(new Error(`${hostname} resolves to a private or reserved address`), { code: 'EBLOCKED' }), '', 4);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };

  return {
    send: ({ url, headers, body, timeoutMs }) =>
      new Promise<SendResult>((resolve) => {
        let target: URL;
        try {
          target = new URL(url);
        } catch {
          return resolve({ kind: 'error', message: 'invalid url' });
        }
        const host = target.hostname.replace(/^\[|\]$/g, '');
        if (isIP(host) && !opts.allowPrivateNetworks && isBlockedAddress(host)) {
          return resolve({ kind: 'error', message: 'target address is private or reserved' });
        }
        const lib = target.protocol === 'https:' ? https : http;
        /** Set at the status line: from then on, the timeout or a cut body ends the send but not its outcome. */
        let answered: SendResult | null = null;
        const req = lib.request(
          target,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'user-agent': 'ars-wallet-webhooks/1', ...headers, 'content-length': Buffer.byteLength(body) },
            lookup: guardedLookup,
            timeout: timeoutMs,
          },
          (res) => {
            // The status line is the receiver's answer (contract: a 2xx is delivered): a body that is slow, huge or
            // never ends must not turn an accepted delivery into a timeout and a duplicate. The body is not needed;
            // a short one is drained so the socket can be reused, a long or slow one cut off. The send ends only
            // then, so its connection is closed before its slot takes the next: otherwise a receiver trickling a
            // body kept a connection per delivery open until the timeout, unbounded by the sends in flight.
            const outcome: SendResult = { kind: 'response', status: res.statusCode ?? 0 };
            answered = outcome;
            const cut = setTimeout(() => res.destroy(), BODY_GRACE_MS);
            const done = () => {
              clearTimeout(cut);
              resolve(outcome);
            };
            let drained = 0;
            res.on('data', (c: Buffer) => {
              drained += c.length;
              if (drained > MAX_DRAINED_BYTES) res.destroy();
            });
            res.on('end', done);
            res.on('close', done);
            res.on('error', () => undefined);
          },
        );
        const timer = setTimeout(() => req.destroy(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
        req.on('timeout', () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
        req.on('error', (e) => resolve(answered ?? { kind: 'error', message: e.message }));
        req.on('close', () => clearTimeout(timer));
        req.end(body);
      }),
  };
}
