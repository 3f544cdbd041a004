import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { writeAudit } from '../modules/audit/audit.service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The audit action a successful call of this route records (who changed keys, limits, the webhook…). */
    audit?: string;
  }
}

/**
 * The owner's activity log shows who did what. Payouts, approvals, MCP calls and the owner's settings (keys, limits,
 * webhook) write their entries inside the transaction of the change, so a change never commits without its entry.
 * The routes whose change is not one transaction of ours declare an `audit` action instead, recorded here once they
 * succeeded, at best effort: refusing an OAuth consent (the library's records) and the sandbox's KYC switch. (An
 * approved consent records its entry with the agent it makes or changes.)
 */
export function registerAuditTrail(app: FastifyInstance, ctx: AppContext): void {
  // Callback style: every response passes here, and almost none has an action to record.
  app.addHook('onResponse', (request, reply, done) => {
    const action = request.routeOptions.config.audit;
    if (!action || reply.statusCode >= 400 || !request.principal) return done();
    const subjectId = (request.params as { id?: string } | undefined)?.id ?? null;
    writeAudit(ctx.store.db, ctx.clock, request.principal, { action, subjectId })
      .catch((err: unknown) => request.log.warn({ err, action }, 'audit entry not written'))
      .finally(() => done());
  });
}
