import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { ping } from '../../db/database.js';
import { migrationsComplete } from '../../db/migrate.js';
import { AppError } from '../../shared/errors.js';
import { errors, noSecurity } from '../../http/schemas.js';
import type { App } from '../../http/types.js';

const Ok = Type.Object({ status: Type.Literal('ok') }, { description: 'Up' });

/** D4: liveness needs the store to answer; readiness also needs every migration applied and Redis, if set. */
export function healthRoutes(app: App, ctx: AppContext): void {
  const unavailable = () => new AppError('SERVICE_UNAVAILABLE', 'Store is not reachable');
  app.get(
    '/healthz',
    {
      config: { access: 'public', rateLimit: false },
      schema: {
        tags: ['health'],
        operationId: 'getLiveness',
        summary: 'Liveness',
        description: '200 while the store answers, even when a dependency such as Redis is degraded.',
        security: noSecurity,
        response: { 200: Ok, ...errors('SERVICE_UNAVAILABLE') },
      },
    },
    async () => {
      await ping(ctx.store).catch(() => {
        throw unavailable();
      });
      return { status: 'ok' as const };
    },
  );
  app.get(
    '/readyz',
    {
      config: { access: 'public', rateLimit: false },
      schema: {
        tags: ['health'],
        operationId: 'getReadiness',
        summary: 'Readiness',
        description: '503 naming the reason while migrations are pending or a dependency is degraded: take the node out of rotation.',
        security: noSecurity,
        response: { 200: Ok, ...errors('SERVICE_UNAVAILABLE') },
      },
    },
    async () => {
      const done = await migrationsComplete(ctx.store).catch(() => {
        throw unavailable();
      });
      if (!done) throw new AppError('SERVICE_UNAVAILABLE', 'Migrations are pending');
      // D30: a degraded dependency takes this node out of rotation but not down: /healthz stays 200.
      const degraded = app.rateLimiter.degraded();
      if (degraded) throw new AppError('SERVICE_UNAVAILABLE', `Degraded: ${degraded}`);
      return { status: 'ok' as const };
    },
  );
}
