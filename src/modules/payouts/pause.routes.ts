import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/auth.js';
import { AUTH_ERRORS, BODY_ERRORS, bearerSecurity, described, errors, OWNER_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { PayoutRecord } from './payouts.schemas.js';
import { pauseAnswer, setPaused } from './pause.service.js';

const PauseBody = Type.Object({
  paused: Type.Boolean(),
  paused_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  in_flight: Type.Array(PayoutRecord, {
    description:
      'payouts whose submission to the bank had already started when this answered: they may still reach the bank. Nothing else is sent until resume.',
  }),
});

/** The owner's emergency stop for every agent at once. */
export function pauseRoutes(app: App, ctx: AppContext): void {
  const tags = ['payouts'];
  const security = bearerSecurity;

  app.get(
    '/v1/payouts/pause',
    {
      config: { access: { scope: 'payouts:read' } },
      schema: {
        tags,
        security,
        operationId: 'getPayoutsPause',
        summary: 'Whether payouts are paused',
        response: { 200: described(PauseBody, 'The emergency stop'), ...errors('INSUFFICIENT_SCOPE', ...AUTH_ERRORS) },
      },
    },
    async (request) => pauseAnswer(ctx.store.db, principalOf(request).userId),
  );

  for (const [path, paused] of [
    ['/v1/payouts/pause', true],
    ['/v1/payouts/resume', false],
  ] as const) {
    app.post(
      path,
      {
        config: { access: 'owner', safetyAction: true },
        schema: {
          tags,
          security,
          operationId: paused ? 'pausePayouts' : 'resumePayouts',
          summary: paused ? 'Pause every payout (owner session)' : 'Resume payouts (owner session)',
          description: paused
            ? 'The emergency stop: once this answers, no transfer toward the bank is started for you until you resume. New payouts are ' +
              'denied, held ones cannot be approved, payouts left approved wait (`waiting_for_resume`; you may cancel them); `in_flight` lists ' +
              'the ones already on their way, which may still reach the bank.'
            : 'Ends the emergency stop; payouts left waiting are sent.',
          response: { 200: described(PauseBody, 'The emergency stop'), ...errors(...OWNER_ERRORS, ...BODY_ERRORS) },
        },
      },
      async (request) => setPaused(ctx, principalOf(request), paused),
    );
  }
}
