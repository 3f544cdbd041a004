import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../shared/errors.js';
import type { Metrics } from './metrics.js';

/** Scrapes served at once; the next answers 503 with Retry-After (a Prometheus or two scrape a node). */
const SCRAPES_AT_ONCE = 4;

/**
 * `GET /metrics` in Prometheus' text format, and the request counters every answer feeds. With `token` set the
 * scrape must send it as a bearer; without, the endpoint is open like the health checks (it holds counts by
 * route, never a user, a key or an amount).
 */
export function metricsRoutes(app: FastifyInstance, metrics: Metrics, token: string): void {
  // Callback style: every request passes here.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.request(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  const expected = Buffer.from(`Bearer ${token}`);
  // D42: the scrape is let in past MAX_REQUESTS_IN_FLIGHT, since a node at its limit (requests piling up behind a
  // failing database) is when its 503s and pools matter most; it has a door of its own instead, so that a flood
  // of scrapes cannot take the database reads the door keeps from the requests.
  let scraping = 0;
  app.get('/metrics', { config: { rateLimit: false, alwaysAdmit: true }, schema: { hide: true } }, async (request, reply) => {
    if (token) {
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError('UNAUTHENTICATED', 'Send Authorization: Bearer <METRICS_TOKEN>');
    }
    if (scraping >= SCRAPES_AT_ONCE) throw new AppError('SERVICE_UNAVAILABLE', `At most ${SCRAPES_AT_ONCE} scrapes run at once; retry in a moment`);
    scraping++;
    try {
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    } finally {
      scraping--;
    }
  });
}
