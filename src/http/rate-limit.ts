import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { AppError, isAppError } from '../shared/errors.js';
import { fallbackStore, RedisLink } from './rate-limit-store.js';

export interface RateLimiter {
  /** Why the limiter cannot do its whole job (for /readyz), or null. */
  degraded(): string | null;
  /** See `chargeFailedRequest`. */
  chargeFailure(request: FastifyRequest, reply: FastifyReply): Promise<AppError | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimiter: RateLimiter;
  }
  interface FastifyContextConfig {
    /**
     * D35: one of the owner's safety actions (log in, pause, resume, revoke or edit a key, approve, reject, cancel).
     * Counted against an abuse ceiling of its own, so neither an agent nor the dashboard can spend its budget.
     */
    safetyAction?: boolean;
    /** D35: the login, whose budget is per client address but apart from what failed authentications spend. */
    login?: boolean;
  }
}

/** The budgets a request can be counted against (D14, D30, D35), by the prefix of its counter's key. */
export interface Budgets {
  /** Agents (API-key sessions, MCP) per user, and client addresses without a user: the contract's 60. */
  perMinute: number;
  /** The owner's sessions per user. */
  ownerPerMinute: number;
  /** The owner's safety actions per user (and a login per client address). */
  safetyPerMinute: number;
}

/** Which budget a request spends: the counter's key; its prefix names the budget (see `maxOf`). */
function budgetKey(req: FastifyRequest): string {
  const p = req.principal;
  const safety = req.routeOptions.config?.safetyAction === true;
  if (p?.kind === 'owner') return `${safety ? 'safety' : 'owner'}:${p.userId}`;
  if (p) return `user:${p.userId}`;
  // A login is a safety action of someone not yet known: its own budget per address, apart from the failed
  // authentications an agent may pile up on that address.
  return `${req.routeOptions.config?.login ? 'login' : 'ip'}:${normalizeIP(req.ip)}`;
}

const maxOf = (b: Budgets) => (_req: FastifyRequest, key: string) =>
  key.startsWith('owner:') ? b.ownerPerMinute : key.startsWith('safety:') || key.startsWith('login:') ? b.safetyPerMinute : b.perMinute;

/** How long a start waits for Redis before it counts in process (D30: a dead Redis never stops the service). */
const REDIS_START_WAIT_MS = 2_000;

/**
 * D14, D30 and D35. Every request that reaches a limited route is counted exactly once, against one budget:
 * an agent's call (API-key session, MCP) against its user's 60 a minute; an owner session's call against the
 * owner's own, larger budget; the owner's safety actions against an abuse ceiling of their own; a request that
 * named no user against its client address (`/v1/users`, `/v1/auth/token` and every failed authentication, REST
 * or MCP; a login has its own per address). So an agent that spends its budget, or a flood of bad credentials from
 * the owner's address, never refuses the owner's stop, revocation or approval.
 *
 * - onRequest, before any auth hook: a login from an address whose login budget is spent is refused without its
 *   password being checked; otherwise a right guess (200) could be told apart from wrong ones (429). Only a
 *   password can be guessed: a raw key (192 random bits), an OAuth access token or a signed session cannot, so a
 *   request carrying one is always checked, and a good one is served from its user's budget (D35) whatever others
 *   at its address did (a hosted MCP client or a NAT serves many users from one address).
 * - preValidation, after the route's auth hook named the user: the normal count.
 * - the error handler, for requests refused before preValidation (bad credentials, owner-only, malformed body):
 *   `chargeFailedRequest`.
 *
 * With Redis the counters are shared by every node; while Redis is unreachable they are kept in process.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  opts: Budgets & { redis: Redis | null; namespace?: string },
): Promise<void> {
  const link = opts.redis ? new RedisLink(opts.redis, app.log) : null;
  await link?.settle(REDIS_START_WAIT_MS);
  // global: false — the hooks below decide what is counted, so a request is never counted twice.
  await app.register(rateLimit, {
    global: false,
    max: maxOf(opts),
    timeWindow: 60_000,
    store: fallbackStore(link, opts.namespace ?? 'svc-rl:'),
    keyGenerator: budgetKey,
  });
  const check = app.createRateLimit();
  const counted = new WeakSet<FastifyRequest>();
  const limited = (request: FastifyRequest) => request.routeOptions.config?.rateLimit !== false;

  const refuse = (reply: FastifyReply, max: number, ttlInSeconds: number) => {
    reply.header('ratelimit-limit', max).header('ratelimit-remaining', 0).header('ratelimit-reset', ttlInSeconds);
    reply.header('retry-after', ttlInSeconds);
    return new AppError('RATE_LIMIT_EXCEEDED', `Rate limit of ${max} requests per minute exceeded; retry in ${ttlInSeconds} s`);
  };

  const consume = async (request: FastifyRequest, reply: FastifyReply) => {
    counted.add(request);
    const r = await check(request);
    if (r.isAllowed) return;
    if (r.isExceeded) throw refuse(reply, r.max, r.ttlInSeconds);
    reply.header('ratelimit-limit', r.max).header('ratelimit-remaining', r.remaining).header('ratelimit-reset', r.ttlInSeconds);
  };

  // Callback style: every request passes here, and an async hook costs a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    if (!limited(request) || request.routeOptions.config?.login !== true) return done();
    check(request, { increment: false })
      .then((r) => {
        // No principal yet: the address's login budget.
        if (r.isAllowed || r.remaining > 0) return undefined;
        counted.add(request);
        return refuse(reply, r.max, r.ttlInSeconds);
      })
      // One place calls done, once: a throw in the step above reaches it as an error too.
      .then((refusal) => done(refusal), done);
  });

  app.addHook('preValidation', (request, reply, done) => {
    if (!limited(request) || counted.has(request)) return done();
    consume(request, reply).then(() => done(), done);
  });

  app.decorate('rateLimiter', {
    degraded: () =>
      link && !link.usable() ? 'redis is unreachable: rate-limit counters are kept in process on each node' : null,
    chargeFailure: async (request: FastifyRequest, reply: FastifyReply) => {
      if (counted.has(request) || !limited(request)) return null;
      try {
        await consume(request, reply);
        return null;
      } catch (e) {
        if (isAppError(e)) return e;
        request.log.error({ err: e }, 'rate limit check failed');
        return null;
      }
    },
  } satisfies RateLimiter);
}

/**
 * For the error handlers: counts a request that failed before the limiter's preValidation hook (once, against
 * its user or its address) and returns the 429 to answer instead when that spent the budget.
 */
export async function chargeFailedRequest(request: FastifyRequest, reply: FastifyReply): Promise<AppError | null> {
  return request.server.hasDecorator('rateLimiter') ? request.server.rateLimiter.chargeFailure(request, reply) : null;
}

export function connectRedis(url: string): Redis {
  // No offline queue and a short command timeout: the limiter must answer at once, from Redis or in process.
  const client = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 1_000, lazyConnect: false });
  // Listened to from the start (D42): the limiter's link, which logs and reports Redis's state, is built only after
  // the migrations, and meanwhile ioredis would print an unheard error outside the log, or end the process.
  client.on('error', () => undefined);
  return client;
}
