import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../shared/errors.js';
import type { Metrics } from './metrics.js';

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
  app.get('/metrics', { config: { rateLimit: false }, schema: { hide: true } }, async (request, reply) => {
    if (token) {
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError('UNAUTHENTICATED', 'Send Authorization: Bearer <METRICS_TOKEN>');
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
