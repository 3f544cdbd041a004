import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { decodeJwt } from 'jose';
import type { AppContext } from '../../context.js';
import { bearerToken, principalOf } from '../../http/auth.js';
import { bearerSecurity, errors, OWNER_ERRORS } from '../../http/schemas.js';
import { AppError } from '../../shared/errors.js';
import type { App } from '../../http/types.js';
import type { LiveHub } from './live.hub.js';

/**
 * A stream ends after this long, or when the session it was opened with expires if that is sooner, and the
 * dashboard opens another (the session is checked again then).
 */
export const STREAM_MAX_MS = 30 * 60 * 1000;

/**
 * Open streams a user may hold at once (one per dashboard tab). Streams are not counted in flight at the door (D42),
 * so they have bounds of their own: this per user, and the door's limit per node. A dashboard refused a stream
 * polls instead and asks again after `Retry-After`.
 */
export const STREAMS_PER_USER = 10;
const STREAM_RETRY_AFTER_SECONDS = 30;

/**
 * `GET /v1/events/stream`: server-sent events for the owner's dashboard. A fetch-read `text/event-stream`
 * rather than EventSource, which cannot send the Authorization header: the owner's token stays in memory (D33).
 */
export function liveRoutes(app: App, ctx: AppContext, hub: LiveHub): void {
  const open = new Map<PassThrough, ServerResponse>();
  const perUser = new Map<string, number>();
  // Closing waits for open responses, and a stream never ends by itself: the server going down ends them.
  app.addHook('preClose', async () => {
    for (const [stream, res] of open) {
      stream.end();
      res.destroy();
    }
  });

  app.get(
    '/v1/events/stream',
    {
      config: { access: 'owner', longLived: true },
      schema: {
        tags: ['live updates'],
        security: bearerSecurity,
        operationId: 'streamLiveState',
        summary: 'Live updates for the dashboard (owner session, server-sent events)',
        description:
          'A `text/event-stream` that stays open: first, and then whenever one changes, an `event: state` whose `data` is a JSON object of fingerprints, one per topic (`approvals`: the pending approvals; `payouts`: the 20 newest payouts; `money`: the wallet history; `pause`: the emergency stop; `limits`: the limits and whitelist). A client fetches again what a changed fingerprint covers. Changes on this node arrive within milliseconds, those made on another node within `LIVE_POLL_MS`. A comment line (`: ping`) every `LIVE_HEARTBEAT_MS` keeps proxies from closing it; the stream ends after 30 minutes, or when the token it was opened with expires if sooner, and the client opens another. Send the `Authorization` header (read it with `fetch`; EventSource cannot send headers). A user holds at most 10 streams at once (429 past them) and a node as many as `MAX_REQUESTS_IN_FLIGHT` (503); both answer `Retry-After`, and an open stream does not count as a request in flight.',
        response: {
          200: {
            description: 'The stream of state fingerprints',
            content: {
              'text/event-stream': {
                schema: Type.String({
                  description: 'e.g. `event: state\\ndata: {"approvals":"q3Zl2GmAqv1c","payouts":"…","money":"…","pause":"…","limits":"…"}\\n\\n`',
                }),
              },
            },
          },
          ...errors(...OWNER_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const userId = principalOf(request).userId;
      const mine = perUser.get(userId) ?? 0;
      // Refused here, not through the error handler: cheap, unlogged, and with a Retry-After long enough that a
      // dashboard polls a while before asking again.
      const full =
        open.size >= ctx.config.maxRequestsInFlight
          ? new AppError('SERVICE_UNAVAILABLE', 'This node holds as many live streams as it can; the dashboard polls meanwhile')
          : mine >= STREAMS_PER_USER
            ? new AppError('RATE_LIMIT_EXCEEDED', `At most ${STREAMS_PER_USER} live streams per user are open at once; close a dashboard tab`)
            : null;
      if (full) return (reply as FastifyReply).code(full.statusCode).header('retry-after', STREAM_RETRY_AFTER_SECONDS).send(full.toBody());
      // The owner guard verified this token; its expiry bounds the stream, which must not outlive the session.
      const expiresAtMs = (decodeJwt(bearerToken(request)!).exp ?? 0) * 1000;
      const sessionEnded = () => ctx.clock.now().getTime() >= expiresAtMs;
      const stream = new PassThrough();
      stream.on('error', () => end()); // a client gone mid-write ends the stream, never the process
      open.set(stream, reply.raw);
      perUser.set(userId, mine + 1);
      let remove: (() => void) | null = null;
      const timers: NodeJS.Timeout[] = [];
      const end = () => {
        remove?.();
        remove = null;
        for (const t of timers) clearInterval(t);
        if (open.delete(stream)) {
          const left = (perUser.get(userId) ?? 1) - 1;
          if (left > 0) perUser.set(userId, left);
          else perUser.delete(userId);
        }
        if (!stream.writableEnded) stream.end();
      };
      reply.raw.on('close', end); // the client went away, or the response ended
      stream.write(`retry: 3000\n\n`);
      remove = await hub
        .add(userId, (state) => (sessionEnded() ? end() : stream.write(`event: state\ndata: ${JSON.stringify(state)}\n\n`)))
        .catch((err: unknown) => {
          end();
          throw err;
        });
      timers.push(setInterval(() => (sessionEnded() ? end() : stream.write(': ping\n\n')), ctx.config.live.heartbeatMs).unref());
      timers.push(setTimeout(end, Math.max(0, Math.min(STREAM_MAX_MS, expiresAtMs - ctx.clock.now().getTime()))).unref());
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache, no-transform')
        .header('x-accel-buffering', 'no')
        .header('connection', 'close') // the socket goes with the stream: nothing idles behind it
        .send(stream as unknown as string); // a stream body: the response schema above documents its text
    },
  );
}
