import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { AppError } from '../shared/errors.js';

/**
 * D14: a per-user budget over every authenticated route (REST and MCP alike) and a per-address budget on the
 * routes that have no user yet. The hook runs at preValidation, after the route's auth hook has named the user.
 * With a Redis URL the counters live in Redis so several nodes share them.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  opts: { perMinute: number; redis: Redis | null; namespace?: string },
): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    hook: 'preValidation',
    max: opts.perMinute,
    timeWindow: 60_000,
    redis: opts.redis ?? undefined,
    nameSpace: opts.namespace ?? 'svc-rl:',
    skipOnError: false,
    enableDraftSpec: true,
    keyGenerator: (req) => (req.principal ? `user:${req.principal.userId}` : `ip:${req.ip}`),
    errorResponseBuilder: (_req, ctx) =>
      new AppError('RATE_LIMIT_EXCEEDED', `Rate limit of ${ctx.max} requests per minute exceeded; retry in ${ctx.after}`),
  });
}

export function connectRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
}
