import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../shared/errors.js';
import { RETRY_AFTER_SECONDS } from './errors.js';

const admitted = new WeakSet<FastifyRequest>();

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Never turned away at the door: the owner's decisions arriving from a messaging channel. */
    alwaysAdmit?: boolean;
    /**
     * A response that stays open (the dashboard's live stream): admitted at the door like any request, but no longer
     * in flight once it starts sending, so open streams never fill the limit for everyone else.
     */
    longLived?: boolean;
  }
}

/**
 * D42: under overload a node sheds at the door. Past `limit` requests in flight, the next answers 503
 * `SERVICE_UNAVAILABLE` with `Retry-After` before it reads or writes anything. A request let in then gets the
 * connections it needs within their own bounds: refusing it at its third checkout instead (the pool's
 * `maxWaiting`, now only a backstop) threw away the work of the first two, and at 400 connections almost no
 * payout finished. The limit is set well above what the pool serves at once (a closed loop of 400 clients is
 * served, queued for connections within their checkout bound); it bounds a flood, not a busy hour. The owner's safety actions and the login are never turned away here: they are rare, have
 * their own abuse ceiling (D35), and an owner must be able to stop agents on a saturated node; nor is the owner's
 * Aprobar/Rechazar arriving from Telegram or WhatsApp (`alwaysAdmit`).
 */
export function registerAdmission(app: FastifyInstance, limit: number, onShed: (reason: 'capacity' | 'closing') => void = () => undefined): void {
  let inFlight = 0;
  // Shutting down (SIGTERM): what is in flight is finished, and a request that still arrives (on a connection
  // that was busy, so not closed) is refused here like any other "not now", so its client retries elsewhere.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  const leave = (request: FastifyRequest) => {
    // onResponse and onRequestAbort can both fire for one request: count it out once.
    if (admitted.delete(request)) inFlight--;
  };
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      onShed('closing');
      const leaving = new AppError('SERVICE_UNAVAILABLE', 'This node is shutting down; retry in a moment');
      void reply.code(leaving.statusCode).header('retry-after', RETRY_AFTER_SECONDS).header('connection', 'close').send(leaving.toBody());
      return;
    }
    const config = request.routeOptions.config;
    if (config?.safetyAction || config?.login || config?.alwaysAdmit) return done();
    if (inFlight >= limit) {
      // Answered here, not through the error handler: a refusal must cost next to nothing, and a flood of them
      // must not become a flood of log lines (the metrics count them by status).
      onShed('capacity');
      const full = new AppError('SERVICE_UNAVAILABLE', 'The service is at capacity; retry in a moment');
      void reply.code(full.statusCode).header('retry-after', RETRY_AFTER_SECONDS).send(full.toBody());
      return;
    }
    inFlight++;
    admitted.add(request);
    // A client that hangs up after sending its whole body gets neither onResponse nor onRequestAbort; the
    // response's 'close' comes in every case (injected requests in tests end through onResponse).
    reply.raw.once('close', () => leave(request));
    done();
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (request.routeOptions.config?.longLived) leave(request);
    done(null, payload);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    leave(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    leave(request);
    done();
  });
}
