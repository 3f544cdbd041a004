import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf, requireAuth, requireOwner } from '../../http/auth.js';
import { AUTH_ERRORS, BODY_ERRORS, bearerSecurity, described, errors, OWNER_ERRORS } from '../../http/schemas.js';
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
      schema: {
        tags,
        security,
        operationId: 'getPayoutsPause',
        summary: 'Whether payouts are paused',
        response: { 200: described(PauseBody, 'The emergency stop'), ...errors(...AUTH_ERRORS) },
      },
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
          operationId: paused ? 'pausePayouts' : 'resumePayouts',
          summary: paused ? 'Pause every payout (owner session)' : 'Resume payouts (owner session)',
          description: paused
            ? 'The emergency stop: every new payout is denied and held ones cannot be approved until resumed; payouts the bank already has finish.'
            : 'Ends the emergency stop.',
          response: { 200: described(PauseBody, 'The emergency stop'), ...errors(...OWNER_ERRORS, ...BODY_ERRORS) },
        },
      },
      async (request) => setPaused(ctx, principalOf(request), paused),
    );
  }
}
