import { redactWebhookUrl } from '../modules/rail/bind/bind.routes.js';

/**
 * Query parameters whose value is a credential: WhatsApp's subscription check sends its verify token as
 * `hub.verify_token`, and a client may put a token, key or code in the URL whatever we ask. Matched on the last
 * part of the name (`hub.verify_token`, `access_token`, `api_key`, `code`), not on names that merely contain
 * one (`code_challenge` is public).
 */
const SECRET_PARAM = /(^|[._-])(token|secret|password|key|code|signature|sig)$/i;

/**
 * At most this many characters of a URL in a log line: a client may send up to Node's 16 KiB of headers, and every
 * request is logged twice (a flood of long URLs must not become a flood of log volume).
 */
const URL_LOGGED_MAX = 1_000;

/** At most this many characters of the Host header in a log line (see URL_LOGGED_MAX). */
export const HOST_LOGGED_MAX = 255;

/**
 * The URL as a log line shows it: BIND's webhook path (its secret token, D43) and the values of credential-like
 * query parameters read `[redacted]`, so a secret never reaches the logs through a URL; a URL longer than URL_LOGGED_MAX is cut.
 */
export function loggedUrl(url: string): string {
  const path = redactWebhookUrl(url.length > URL_LOGGED_MAX ? `${url.slice(0, URL_LOGGED_MAX)}…` : url);
  const q = path.indexOf('?');
  if (q < 0) return path;
  const query = path
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: judged as written.
      }
      return SECRET_PARAM.test(name) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    })
    .join('&');
  return `${path.slice(0, q)}?${query}`;
}
