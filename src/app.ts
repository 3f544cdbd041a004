import { randomUUID } from 'node:crypto';
import path from 'node:path';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { pino, type DestinationStream } from 'pino';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { isStoreUnavailable, storeFailureKind } from './db/store-errors.js';
import { openStore, type QueryObserver, type Store } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { registerAdmission } from './http/admission.js';
import { registerAccess } from './http/auth.js';
import { registerAuditTrail } from './http/audit-trail.js';
import { registerErrorHandling } from './http/errors.js';
import { HOST_LOGGED_MAX, loggedUrl } from './http/logged-url.js';
import { openapiOptions } from './http/openapi.js';
import { connectRedis, registerRateLimit } from './http/rate-limit.js';
import { registerValidation } from './http/validation.js';
import { DEFAULT_WEB_ROOT, registerWeb } from './http/web.js';
import type { App } from './http/types.js';
import { approvalsRoutes } from './modules/approvals/approvals.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { ApprovalKinds } from './modules/approvals/approval-kinds.js';
import { approvalExpiryPass, oldestApprovalDue, retryPendingNotices } from './modules/approvals/approvals.service.js';
import type { ApprovalChannel } from './modules/approvals/channels/channel.port.js';
import { dashboardChannel } from './modules/approvals/channels/dashboard.channel.js';
import { purgeExpiredKeys } from './modules/idempotency/idempotency.service.js';
import { oldestFollowUpDue, payoutFollowUpPass } from './modules/payouts/payout.follow-up.js';
import { createMetrics, registerProbes } from './modules/metrics/metrics.js';
import { metricsRoutes } from './modules/metrics/metrics.routes.js';
import { payoutApprovals } from './modules/payouts/payout.approvals.js';
import { thresholdApprovals } from './modules/thresholds/thresholds.approvals.js';
import { mcpRoutes } from './modules/mcp/mcp.routes.js';
import { destinationsRoutes } from './modules/destinations/destinations.routes.js';
import { payoutsRoutes } from './modules/payouts/payouts.routes.js';
import { pauseRoutes } from './modules/payouts/pause.routes.js';
import { transfersRoutes } from './modules/transfers/transfers.routes.js';
import { transactionsRoutes } from './modules/transactions/transactions.routes.js';
import { DELIVERY_BATCH, DELIVERY_LEASE_MS, DeliveryPasses, deliveryBacklog, oldestDeliveryDue } from './modules/webhooks/delivery.worker.js';
import { httpSender } from './modules/webhooks/http-sender.js';
import type { WebhookSender } from './modules/webhooks/sender.port.js';
import { registerWebhookOutbox } from './modules/webhooks/webhooks.outbox.js';
import { registerTransactionsHistory } from './modules/transactions/transactions.service.js';
import { pruneDeliveries } from './modules/webhooks/webhooks.service.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { SecretBox } from './shared/secret-box.js';
import { TelegramChannel } from './modules/telegram/telegram.channel.js';
import { telegramRoutes } from './modules/telegram/telegram.routes.js';
import { pruneTelegram } from './modules/telegram/telegram.service.js';
import { WhatsAppChannel } from './modules/whatsapp/whatsapp.channel.js';
import { whatsappRoutes } from './modules/whatsapp/whatsapp.routes.js';
import { LiveHub, registerLiveHub } from './modules/live/live.hub.js';
import { liveRoutes } from './modules/live/live.routes.js';
import { pruneWhatsApp } from './modules/whatsapp/whatsapp.service.js';
import { thresholdsRoutes } from './modules/thresholds/thresholds.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { keysRoutes } from './modules/keys/keys.routes.js';
import { pruneExpiredRecords } from './modules/oauth/oauth.adapter.js';
import { pinnedFetch, type MetadataFetch } from './modules/oauth/metadata-fetch.js';
import { OAuthServer } from './modules/oauth/oauth.provider.js';
import { oauthRoutes } from './modules/oauth/oauth.routes.js';
import type { BankRail } from './modules/rail/rail.port.js';
import { SandboxRail } from './modules/rail/sandbox/sandbox-rail.js';
import { BindClient } from './modules/rail/bind/bind-client.js';
import { BindInbox } from './modules/rail/bind/bind-inbox.js';
import { BindRail } from './modules/rail/bind/bind-rail.js';
import { bindWebhookRoutes } from './modules/rail/bind/bind.routes.js';
import { sandboxRoutes } from './modules/sandbox/sandbox.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { walletRoutes } from './modules/wallet/wallet.routes.js';
import { DEPOSIT_DETECTION_BATCH, detectDeposits } from './modules/wallet/wallet.service.js';
import { systemClock, type Clock } from './shared/clock.js';
import { compactError } from './shared/log-errors.js';
import { batchPass, PeriodicJob, singlePass } from './shared/jobs.js';

/** Outside systems and test seams. Everything has a production default. */
export interface Deps {
  clock?: Clock;
  /** Where logs go (tests capture them to prove secrets never appear). */
  logStream?: DestinationStream;
  /** Start background jobs on listen (default true). Tests drive jobs with `runOnce()` instead. */
  startJobs?: boolean;
  /**
   * The bank rail port. Default: the sandbox bank. Tests wrap it to inject outside faults (timeouts, outages).
   * On PostgreSQL it is called twice, for the requests' sandbox and the jobs' (over the background connections),
   * so a wrapper keeps its state outside the function.
   */
  rail?: (sandbox: SandboxRail) => BankRail;
  /** Extra approval channel adapters by name (tests' fakes); `dashboard` is built in. */
  channels?: Partial<Record<string, ApprovalChannel>>;
  /** The webhook sender port. Default: HTTP with the SSRF guard. */
  webhookSender?: WebhookSender;
  /** What the OAuth server fetches (client ID metadata documents). Default: https, the address checked and pinned. */
  metadataFetch?: MetadataFetch;
  /** Sees every statement the store runs (the query-plan test). */
  onQuery?: QueryObserver;
  /** The delivery worker's claim lease (default DELIVERY_LEASE_MS); tests shorten it to outlast it with slow receivers. */
  webhookLeaseMs?: number;
  /** The built dashboard served at `/` (default dist/web; null serves none). */
  webRoot?: string | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    jobs: Record<string, PeriodicJob>;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The one composition root, used by `main` and by every test. */
export async function buildApp(config: Config, deps: Deps = {}): Promise<FastifyInstance> {
  if (!config.jwtSecret || !config.secretsKey) throw new Error('jwtSecret and secretsKey must be resolved before buildApp (see main.ts)');
  const logger = pino(
    {
      level: config.logLevel,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-telegram-bot-api-secret-token"]',
          '*.password',
          '*.api_key',
          '*.key',
          '*.secret',
          '*.token',
        ],
        censor: '[redacted]',
      },
      // D43: BIND's webhook URL carries its secret token, WhatsApp's subscription check its verify token in the
      // query: every logged URL shows them redacted.
      serializers: {
        err: compactError,
        req: (req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
          method: req.method,
          url: loggedUrl(req.url),
          host: req.host?.slice(0, HOST_LOGGED_MAX),
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
      },
    },
    deps.logStream,
  );

  // D30: the service speaks plain HTTP, so an https PUBLIC_URL means a TLS proxy in front; untrusted, every client
  // is the proxy's address (one rate-limit budget for all).
  if (config.publicUrl.startsWith('https://') && config.trustProxy === false) {
    logger.warn(
      "PUBLIC_URL is https but TRUST_PROXY is false: behind a TLS proxy every client shares the proxy's address (one rate-limit budget for all); set TRUST_PROXY to the proxy's addresses",
    );
  }
  // D30: `true` takes the leftmost X-Forwarded-For entry, which a proxy that appends to the header passes on from
  // the client: each request could then choose its address, and so its login and rate-limit budget.
  if (config.trustProxy === true) {
    logger.warn(
      "TRUST_PROXY=true trusts every X-Forwarded-For hop: unless the proxy replaces that header, a client chooses its own address and rate-limit budget; set TRUST_PROXY to the proxy's addresses instead",
    );
  }

  const fastify = Fastify({
    loggerInstance: logger,
    bodyLimit: 64 * 1024,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : `req_${randomUUID()}`;
    },
    // A request arriving while the node drains is refused by registerAdmission in our envelope, with Retry-After;
    // Fastify's own refusal had neither (D8, D42).
    return503OnClosing: false,
    trustProxy: config.trustProxy, // D30: request.ip (limiter key, logs) from X-Forwarded-For only when told
  }).withTypeProvider<TypeBoxTypeProvider>();
  const app = fastify as unknown as App;

  const store = openStore({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'wallet.sqlite'),
    postgres: { ...config.postgres, poolMax: config.databasePoolMax },
    sqliteSync: config.sqliteSync,
    sqliteCacheMb: config.sqliteCacheMb,
    onQuery: deps.onQuery,
    onCheckpointerFailure: (err) => logger.error({ err }, 'SQLite checkpoint worker failed; the main connection checkpoints again'),
    onPostgresEvent: (msg, err) => logger.warn({ err }, msg),
  });
  const redis: Redis | null = config.redisUrl ? connectRedis(config.redisUrl) : null;
  const clock = deps.clock ?? systemClock;
  const sandboxRail = new SandboxRail(store, clock, config.sandboxConfirmDelayMs);
  const railOver = (sandbox: SandboxRail): BankRail => (deps.rail ? deps.rail(sandbox) : sandbox);
  // D43: BANK_RAIL=bind puts BIND's PSP API behind the port; one HTTP client (and token) for requests and jobs.
  const bindClient = config.bind ? new BindClient(config.bind) : null;
  const bindRailOn = (s: Store) => new BindRail(bindClient!, new BindInbox(s, clock), clock, logger);
  const rail = bindClient ? bindRailOn(store) : railOver(sandboxRail);
  // The channels keep their own tables (linked chats, messages sent): the jobs' channels on the jobs' pool, so a
  // flood of requests cannot hold back a notice the owner is owed (D42).
  const channelsOn = (s: Store): ApprovalChannel[] => {
    const channelByName: Record<string, ApprovalChannel | undefined> = {
      dashboard: dashboardChannel,
      ...(config.approvalChannels.includes('telegram') ? { telegram: new TelegramChannel(s.db, clock, config.telegram) } : {}),
      ...(config.approvalChannels.includes('whatsapp') ? { whatsapp: new WhatsAppChannel(s.db, clock, config.whatsapp) } : {}),
      ...deps.channels,
    };
    return config.approvalChannels.map((name) => {
      const c = channelByName[name];
      if (!c) throw new Error(`approval channel "${name}" is configured but not available in this build`);
      return c;
    });
  };
  const channels = channelsOn(store);
  const approvalKinds = new ApprovalKinds();
  approvalKinds.register('payout', payoutApprovals);
  approvalKinds.register('threshold_change', thresholdApprovals);
  const ctx: AppContext = {
    approvalKinds,
    config,
    store,
    clock,
    log: logger,
    rail,
    sandboxRail,
    channels,
    webhookSender: deps.webhookSender ?? httpSender({ allowPrivateNetworks: config.webhook.allowPrivateNetworks }),
    secretBox: new SecretBox(config.secretsKey),
    metrics: createMetrics(),
  };
  ctx.followUpAt = (at) => jobs.payoutFollowUp!.wakeIn(Date.parse(at) - clock.now().getTime());
  // The jobs finish work already accepted (confirmations, deliveries, expiries): on PostgreSQL they have a pool of
  // their own, and so does the rail when they ask it.
  const jobSandbox = store.background === store ? sandboxRail : new SandboxRail(store.background, clock, config.sandboxConfirmDelayMs);
  const jobBind = bindClient ? (store.background === store ? (rail as BindRail) : bindRailOn(store.background)) : null;
  const jobRail = jobBind ?? (jobSandbox === sandboxRail ? rail : railOver(jobSandbox));
  const jobChannels = store.background === store ? channels : channelsOn(store.background);
  const jobCtx: AppContext = { ...ctx, store: store.background, rail: jobRail, sandboxRail: jobSandbox, channels: jobChannels };
  const every = config.jobsIntervalMs;
  // Every failed pass is logged and counted, by what the database said when it could not serve it (D42).
  const jobFailed = (job: string, err: unknown) => ctx.metrics.jobFailed(job, isStoreUnavailable(err) ? storeFailureKind(err) : 'error');
  const deliveryPasses = new DeliveryPasses(jobCtx, deps.webhookLeaseMs ?? DELIVERY_LEASE_MS, () => jobs.webhookDelivery!.wake());
  const jobs: Record<string, PeriodicJob> = {
    railSettlement: new PeriodicJob('rail-settlement', every, batchPass(500, (n) => jobSandbox.settleDue(n)), logger, jobFailed),
    depositDetection: new PeriodicJob('deposit-detection', every, batchPass(DEPOSIT_DETECTION_BATCH, (n) => detectDeposits(jobCtx, n)), logger, jobFailed),
    approvalExpiry: new PeriodicJob('approval-expiry', every, approvalExpiryPass(jobCtx), logger, jobFailed),
    payoutFollowUp: new PeriodicJob('payout-follow-up', every, payoutFollowUpPass(jobCtx), logger, jobFailed),
    approvalNotices: new PeriodicJob('approval-notices', every, batchPass(100, (n) => retryPendingNotices(jobCtx, n)), logger, jobFailed),
    webhookDelivery: new PeriodicJob(
      'webhook-delivery',
      config.webhook.pollIntervalMs,
      batchPass(DELIVERY_BATCH, (limit) => deliveryPasses.pass(limit)),
      logger,
      jobFailed,
    ),
    webhookPrune: new PeriodicJob('webhook-prune', 60 * 60 * 1000, singlePass(() => pruneDeliveries(jobCtx)), logger, jobFailed),
    idempotencyPurge: new PeriodicJob('idempotency-purge', 60 * 60 * 1000, singlePass(() => purgeExpiredKeys(jobCtx)), logger, jobFailed),
    telegramPrune: new PeriodicJob('telegram-prune', 60 * 60 * 1000, singlePass(() => pruneTelegram(jobCtx)), logger, jobFailed),
    whatsappPrune: new PeriodicJob('whatsapp-prune', 60 * 60 * 1000, singlePass(() => pruneWhatsApp(jobCtx)), logger, jobFailed),
    oauthPrune: new PeriodicJob('oauth-prune', 60 * 60 * 1000, singlePass(() => pruneExpiredRecords(jobCtx.store)), logger, jobFailed),
    ...(jobBind && config.bind
      ? { bindReconciliation: new PeriodicJob('bind-reconciliation', config.bind.reconcileIntervalMs, singlePass(() => jobBind.reconcile()), logger, jobFailed) }
      : {}),
  };

  // Events reach webhooks through the outbox subscriber; a committed delivery wakes this node's worker, so the
  // poll interval is only the longest a delivery waits.
  const unregisterWebhookOutbox = registerWebhookOutbox(() => jobs.webhookDelivery!.wake());
  registerTransactionsHistory();
  const liveHub = new LiveHub(store.db, config.live.pollMs, (err) => logger.warn({ err }, 'live state not read'));
  const unregisterLiveHub = registerLiveHub(liveHub);

  try {
    await migrateToLatest(store);
  } catch (e) {
    unregisterWebhookOutbox();
    unregisterLiveHub();
    await store.close();
    redis?.disconnect();
    throw e;
  }

  // Every body is JSON (contract, Endpoints); anything else is 415 rather than a confusing schema error.
  app.removeContentTypeParser('text/plain');
  app.decorate('ctx', ctx);
  app.decorate('jobs', jobs);
  app.decorateRequest('principal', null);
  // Callback-style global hooks: every request pays for them, and an async hook costs a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  registerAdmission(app as unknown as FastifyInstance, config.maxRequestsInFlight, (reason) => ctx.metrics.shed(reason));
  registerAccess(app as unknown as FastifyInstance, ctx);
  registerValidation(app as unknown as FastifyInstance);
  registerErrorHandling(app as unknown as FastifyInstance);
  registerAuditTrail(app as unknown as FastifyInstance, ctx);
  await registerRateLimit(app as unknown as FastifyInstance, {
    perMinute: config.rateLimitPerMinute,
    ownerPerMinute: config.ownerRateLimitPerMinute,
    safetyPerMinute: config.safetyActionsPerMinute,
    redis,
  });
  await app.register(swagger, openapiOptions());
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });

  // D44: the OAuth authorization server of /mcp; its URL is PUBLIC_URL, or the address the service listens on.
  const oauth = new OAuthServer(
    ctx,
    () => app.server.address(),
    deps.metadataFetch ?? pinnedFetch({ allowPrivateNetworks: config.webhook.allowPrivateNetworks }),
  );

  healthRoutes(app, ctx);
  usersRoutes(app, ctx);
  authRoutes(app, ctx);
  keysRoutes(app, ctx);
  walletRoutes(app, ctx);
  sandboxRoutes(app, ctx);
  thresholdsRoutes(app, ctx);
  payoutsRoutes(app, ctx);
  destinationsRoutes(app, ctx);
  pauseRoutes(app, ctx);
  transfersRoutes(app, ctx);
  transactionsRoutes(app, ctx);
  approvalsRoutes(app, ctx);
  webhooksRoutes(app, ctx);
  mcpRoutes(app, ctx, oauth);
  await oauthRoutes(app, ctx, oauth);
  telegramRoutes(app, ctx);
  await whatsappRoutes(app, ctx);
  liveRoutes(app, ctx, liveHub);
  auditRoutes(app, ctx);
  if (config.bind) await bindWebhookRoutes(app as unknown as FastifyInstance, config.bind, new BindInbox(store, clock));
  app.get('/openapi.json', { config: { rateLimit: false }, schema: { hide: true } }, async () => app.swagger());
  metricsRoutes(app as unknown as FastifyInstance, ctx.metrics, config.metricsToken);
  registerProbes(ctx.metrics, {
    oldestDue: {
      'payout-follow-up': () => oldestFollowUpDue(ctx),
      'webhook-delivery': () => oldestDeliveryDue(ctx),
      'approval-expiry': () => oldestApprovalDue(ctx, 'expiry'),
      'approval-notices': () => oldestApprovalDue(ctx, 'notice'),
      'deposit-detection': () => rail.oldestIncoming(),
      ...(config.sandbox ? { 'rail-settlement': () => sandboxRail.oldestUnsettled() } : {}),
    },
    deliveryBacklog: () => deliveryBacklog(ctx),
    pools: { requests: store.poolStats, jobs: store.background === store ? undefined : store.background.poolStats },
    now: () => clock.now(),
  });
  await registerWeb(app as unknown as FastifyInstance, deps.webRoot === undefined ? DEFAULT_WEB_ROOT : deps.webRoot);

  app.addHook('onReady', async () => {
    if (deps.startJobs !== false) for (const job of Object.values(jobs)) job.start();
  });
  // Shutdown order: Fastify stops accepting and drains requests, then jobs finish their run, then the store.
  app.addHook('onClose', async () => {
    unregisterWebhookOutbox();
    unregisterLiveHub();
    deliveryPasses.stopSending();
    await Promise.all(Object.values(jobs).map((j) => j.stop()));
    await deliveryPasses.drain();
    await store.close();
    await bindClient?.close();
    if (redis) await redis.quit().catch(() => redis.disconnect());
  });

  return app as unknown as FastifyInstance;
}
