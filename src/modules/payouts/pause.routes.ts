import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf, requireAuth, requireOwner } from '../../http/auth.js';
import { AUTH_ERRORS, bearerSecurity, errors } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { pauseState, setPaused } from './pause.service.js';

const PauseBody = Type.Object({
  paused: Type.Boolean(),
  paused_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

/** The owner's emergency stop for every agent at once. */
export function pauseRoutes(app: App, ctx: AppContext): void {
  const auth = requireAuth(ctx);
  const tags = ['payouts'];
  const security = bearerSecurity;

  app.get(
    '/v1/payouts/pause',
    {
      onRequest: auth,
      schema: { tags, security, summary: 'Whether payouts are paused', response: { 200: PauseBody, ...errors(...AUTH_ERRORS) } },
    },
    async (request) => pauseState(ctx.store.db, principalOf(request).userId),
  );

  for (const [path, paused] of [
    ['/v1/payouts/pause', true],
    ['/v1/payouts/resume', false],
  ] as const) {
    app.post(
      path,
      {
        onRequest: [auth, requireOwner],
        schema: {
          tags,
          security,
          summary: paused
            ? 'Emergency stop (owner session): deny every new payout and hold approvals until resumed; payouts already sent finish'
            : 'Resume payouts after an emergency stop (owner session)',
          response: { 200: PauseBody, ...errors(...AUTH_ERRORS, 'OWNER_SESSION_REQUIRED') },
        },
      },
      async (request) => setPaused(ctx, principalOf(request), paused),
    );
  }
}
