import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { createSecureContext } from 'node:tls';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { APPROVAL_CHANNEL_NAMES, type ApprovalChannelName, type BindConfig, type Config } from './config-types.js';
import { parseAllowedHosts, splitHost, type HostEntry } from './http/allowed-hosts.js';
import { kindOf } from './shared/ar-identifiers.js';
import { arsToCentavos } from './shared/money.js';

export { APPROVAL_CHANNEL_NAMES, type ApprovalChannelName, type BindConfig, type Config } from './config-types.js';

/**
 * The one place that reads the environment (D3). Every setting is parsed and checked once at start; a bad
 * value stops the process with a message naming the variable.
 */
const Int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  Type.Integer({ default: def, minimum: min, maximum: max });
const Amount = (def: number) => Type.Number({ default: def, minimum: 0, maximum: 1e12 });

/** SQLite's page cache unless SQLITE_CACHE_MB says otherwise; also what a store opened without a config gets. */
export const DEFAULT_SQLITE_CACHE_MB = 64;
/** PostgreSQL connections per node unless DATABASE_POOL_MAX says otherwise (node-postgres's own default). */
export const DEFAULT_DATABASE_POOL_MAX = 10;

const EnvSchema = Type.Object({
  PORT: Int(3000, 0, 65535),
  HOST: Type.String({ default: '127.0.0.1', minLength: 1 }),
  PUBLIC_URL: Type.String({ default: '' }),
  DATA_DIR: Type.String({ default: './data', minLength: 1 }),
  DATABASE_URL: Type.String({ default: '' }),
  DATABASE_POOL_MAX: Int(DEFAULT_DATABASE_POOL_MAX, 1, 1000),
  DATABASE_JOBS_POOL_MAX: Int(4, 1, 100),
  DATABASE_CHECKOUT_TIMEOUT_MS: Int(2000, 1, 600_000),
  // At least 1: with 0 every checkout was refused, the migrations' too, and the service could not start.
  DATABASE_MAX_WAITING: Int(1000, 1, 100_000),
  MAX_REQUESTS_IN_FLIGHT: Int(1000, 1, 100_000),
  DATABASE_STATEMENT_TIMEOUT_MS: Int(5000, 1, 3_600_000),
  DATABASE_LOCK_TIMEOUT_MS: Int(2000, 1, 3_600_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: Int(10000, 1, 3_600_000),
  SQLITE_SYNC: Type.Union([Type.Literal('background'), Type.Literal('inline')], { default: 'inline' }),
  SQLITE_CACHE_MB: Int(DEFAULT_SQLITE_CACHE_MB, 2, 65536),
  REDIS_URL: Type.String({ default: '' }),
  JWT_SECRET: Type.String({ default: '' }),
  SECRETS_KEY: Type.String({ default: '' }),
  JWT_EXPIRY_HOURS: Type.Number({ default: 24, exclusiveMinimum: 0, maximum: 24 * 365 }),
  DEFAULT_PER_TX_LIMIT_ARS: Amount(100000),
  DEFAULT_DAILY_LIMIT_ARS: Amount(500000),
  DEFAULT_MONTHLY_LIMIT_ARS: Amount(2000000),
  DEFAULT_REQUIRE_APPROVAL_ABOVE_ARS: Amount(50000),
  DEFAULT_WHITELIST_CBUS: Type.String({ default: '' }),
  // The hard cap has no "0 = off", unlike the limits (D15): an operator cannot switch it off by accident.
  ABSOLUTE_CAP_ARS: Type.Number({ default: 5000000, exclusiveMinimum: 0, maximum: 1e12 }),
  // Within the idempotency window (24 h, D37) with an hour to spare (the window starts at the key's claim, the
  // approval's a little later): a retry with the payout's key while its approval is open must answer that payout,
  // never make a second one the owner could approve too.
  APPROVAL_TTL_SECONDS: Int(300, 1, 23 * 3600),
  APPROVAL_CHANNELS: Type.String({ default: 'dashboard' }),
  RATE_LIMIT_PER_MINUTE: Int(60, 1),
  OWNER_RATE_LIMIT_PER_MINUTE: Int(600, 1),
  SAFETY_ACTIONS_PER_MINUTE: Int(120, 1),
  PAYOUT_SUBMISSION_GRACE_MS: Int(30_000, 100, 3_600_000),
  METRICS_TOKEN: Type.String({ default: '' }),
  TRUST_PROXY: Type.String({ default: 'false' }),
  ALLOWED_HOSTS: Type.String({ default: '' }),
  WEBHOOK_POLL_INTERVAL_MS: Int(10000, 10),
  WEBHOOK_RETRY_DELAYS_MS: Type.String({ default: '60000,300000,1800000,7200000' }),
  WEBHOOK_TIMEOUT_MS: Int(30000, 1),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: Type.Boolean({ default: false }),
  SANDBOX_CONFIRM_DELAY_MS: Int(2000, 0),
  JOBS_INTERVAL_MS: Int(1000, 10),
  TELEGRAM_BOT_TOKEN: Type.String({ default: '' }),
  TELEGRAM_WEBHOOK_SECRET: Type.String({ default: '' }),
  TELEGRAM_API_ROOT: Type.String({ default: 'https://api.telegram.org' }),
  TELEGRAM_ANSWER_WITHIN_MS: Int(5000, 10, 10000),
  BANK_RAIL: Type.Union([Type.Literal('sandbox'), Type.Literal('bind')], { default: 'sandbox' }),
  BIND_API_URL: Type.String({ default: '' }),
  BIND_TOKEN_URL: Type.String({ default: '' }),
  BIND_CLIENT_ID: Type.String({ default: '' }),
  BIND_CLIENT_SECRET: Type.String({ default: '' }),
  BIND_SCOPE: Type.String({ default: 'api://bindpagos.com.ar/.default' }),
  BIND_CLIENT_CERT_FILE: Type.String({ default: '' }),
  BIND_CLIENT_KEY_FILE: Type.String({ default: '' }),
  BIND_CA_FILE: Type.String({ default: '' }),
  BIND_WEBHOOK_TOKEN: Type.String({ default: '' }),
  BIND_WEBHOOK_ALLOWED_IPS: Type.String({ default: '' }),
  BIND_TIMEOUT_MS: Int(10000, 100, 120000),
  BIND_RECONCILE_INTERVAL_MS: Int(3600000, 1000),
  LIVE_POLL_MS: Int(10000, 100),
  LIVE_HEARTBEAT_MS: Int(25000, 100),
  WHATSAPP_TOKEN: Type.String({ default: '' }),
  WHATSAPP_PHONE_NUMBER_ID: Type.String({ default: '' }),
  WHATSAPP_APP_SECRET: Type.String({ default: '' }),
  WHATSAPP_VERIFY_TOKEN: Type.String({ default: '' }),
  WHATSAPP_TEMPLATE: Type.String({ default: '' }),
  WHATSAPP_LIMITS_TEMPLATE: Type.String({ default: '' }),
  WHATSAPP_API_ROOT: Type.String({ default: 'https://graph.facebook.com/v21.0' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
});
type Env = Static<typeof EnvSchema>;

export class ConfigError extends Error {}

const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

function parseTrustProxy(v: string): Config['trustProxy'] {
  const s = v.trim().toLowerCase();
  if (s === 'false' || s === '') return false;
  if (s === 'true') return true;
  const proxies = list(s);
  const ok = proxies.every((p) => {
    const [addr, bits, ...rest] = p.split('/');
    const family = isIP(addr ?? '');
    return family !== 0 && rest.length === 0 && (bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)));
  });
  if (!ok) throw new ConfigError('Invalid configuration:\n  TRUST_PROXY: true, false, or a comma list of proxy IPs/CIDRs');
  return proxies.join(',');
}

function parseHosts(value: string, host: string, port: number, publicUrl: string): HostEntry[] {
  try {
    const hosts = parseAllowedHosts(value, host, port);
    // D41, D44: by default the public name the service announces (its OAuth resource) is allowed too.
    const pub = value.trim() === '' && publicUrl ? splitHost(new URL(publicUrl).host) : null;
    return pub ? [...hosts, pub] : hosts;
  } catch (err) {
    throw new ConfigError(`Invalid configuration:\n  ALLOWED_HOSTS: ${(err as Error).message}`);
  }
}

/**
 * For a setting that takes one of a few words, the message that names them (TypeBox says only "Expected union
 * value", or "Expected boolean" for a switch).
 */
function choicesOf(key: string): string | null {
  const schema = EnvSchema.properties[key as keyof Env] as { anyOf?: Array<{ const?: unknown }>; type?: string } | undefined;
  if (schema?.type === 'boolean') return 'Expected true or false';
  const words = schema?.anyOf?.map((s) => s.const).filter((c): c is string => typeof c === 'string');
  return words && words.length > 0 ? `Expected one of ${words.join(', ')}` : null;
}

/** An outside API's base URL: http(s), checked at start rather than at the first approval sent through it. */
function checkApiRoot(name: string, value: string): void {
  let u: URL | null = null;
  try {
    u = new URL(value);
  } catch {
    // reported below
  }
  if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:')) {
    throw new ConfigError(`Invalid configuration:\n  ${name}: an http(s) URL (got ${JSON.stringify(value)})`);
  }
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const v = env[key];
    // An empty variable is unset, except where empty is a value: APPROVAL_CHANNEL= means "no channel" (D3).
    if (v !== undefined && (v !== '' || key === 'APPROVAL_CHANNELS')) raw[key] = v;
  }
  // Convert would truncate "2.5" to a whole number, and it converts `raw` in place: checked first.
  const fractions = Object.keys(raw).filter(
    (key) => (EnvSchema.properties[key as keyof Env] as { type?: string }).type === 'integer' && !/^\s*-?\d+\s*$/.test(String(raw[key])),
  );
  const given = { ...raw };
  const withDefaults = Value.Default(EnvSchema, Value.Convert(EnvSchema, raw)) as Record<string, unknown>;
  // Pesos are kept as whole centavos: a default limit or cap with more decimals would be rounded where nobody sees it.
  const overPrecise = Object.keys(raw).filter((key) => key.endsWith('_ARS') && typeof withDefaults[key] === 'number' && arsToCentavos(withDefaults[key]) === null);
  const problems = new Map<string, string>([
    ...fractions.map((key) => [key, 'Expected a whole number'] as const),
    ...overPrecise.map((key) => [key, 'Expected pesos with at most 2 decimals'] as const),
  ]);
  for (const p of Value.Errors(EnvSchema, withDefaults)) if (!problems.has(p.path.slice(1))) problems.set(p.path.slice(1), choicesOf(p.path.slice(1)) ?? p.message);
  if (problems.size > 0) {
    const msg = [...problems].map(([key, message]) => `${key}: ${message} (got ${JSON.stringify(given[key])})`);
    throw new ConfigError(`Invalid configuration:\n  ${msg.join('\n  ')}`);
  }
  const e = withDefaults as Env;

  // BIND's credentials without BANK_RAIL: the default would start the sandbox bank (simulated money, and helpers
  // that credit any wallet) where BIND was meant. Only an explicit BANK_RAIL=sandbox keeps it with them set.
  const bindGiven = (['BIND_API_URL', 'BIND_TOKEN_URL', 'BIND_CLIENT_ID', 'BIND_CLIENT_SECRET'] as const).filter((k) => given[k] !== undefined);
  if (given.BANK_RAIL === undefined && bindGiven.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  BANK_RAIL: unset, but ${bindGiven.join(', ')} ${bindGiven.length > 1 ? 'are' : 'is'} set; the default would run the sandbox bank ` +
        '(simulated money). Set BANK_RAIL=bind to pay through BIND, or BANK_RAIL=sandbox to keep the sandbox',
    );
  }

  const channels = list(e.APPROVAL_CHANNELS);
  for (const c of channels) {
    if (!(APPROVAL_CHANNEL_NAMES as readonly string[]).includes(c)) {
      throw new ConfigError(`Invalid configuration:\n  APPROVAL_CHANNELS: unknown channel "${c}" (use dashboard, telegram, whatsapp)`);
    }
  }
  if (channels.includes('telegram') && (!e.TELEGRAM_BOT_TOKEN || e.TELEGRAM_WEBHOOK_SECRET.length < 16)) {
    throw new ConfigError(
      'Invalid configuration:\n  APPROVAL_CHANNELS includes telegram: set TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_SECRET (≥ 16 characters)',
    );
  }
  const [templateName = '', templateLanguage = ''] = e.WHATSAPP_TEMPLATE.split(':').map((x) => x.trim());
  if (
    channels.includes('whatsapp') &&
    (!e.WHATSAPP_TOKEN || !e.WHATSAPP_PHONE_NUMBER_ID || e.WHATSAPP_APP_SECRET.length < 16 || e.WHATSAPP_VERIFY_TOKEN.length < 16 || !templateName || !templateLanguage)
  ) {
    throw new ConfigError(
      'Invalid configuration:\n  APPROVAL_CHANNELS includes whatsapp: set WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_APP_SECRET (≥ 16 characters), ' +
        'WHATSAPP_VERIFY_TOKEN (≥ 16 characters) and WHATSAPP_TEMPLATE as name:language (e.g. aprobacion_pago:es_AR)',
    );
  }
  // D45: an agent's proposal of limits needs a template of its own (the approval template speaks of a payment).
  const [limitsName = '', limitsLanguage = ''] = e.WHATSAPP_LIMITS_TEMPLATE.split(':').map((x) => x.trim());
  if (e.WHATSAPP_LIMITS_TEMPLATE.trim() !== '' && (!limitsName || !limitsLanguage)) {
    throw new ConfigError('Invalid configuration:\n  WHATSAPP_LIMITS_TEMPLATE: name:language (e.g. cambio_limites:es_AR), or empty');
  }
  // A mistyped entry would never match, and every payout to that account would wait for approval unexplained.
  const badWhitelisted = list(e.DEFAULT_WHITELIST_CBUS).find((w) => kindOf(w) === null);
  if (badWhitelisted !== undefined) {
    throw new ConfigError(`Invalid configuration:\n  DEFAULT_WHITELIST_CBUS: ${JSON.stringify(badWhitelisted)} is not a valid CBU, CVU or alias`);
  }
  const delays = list(e.WEBHOOK_RETRY_DELAYS_MS).map(Number);
  if (delays.length === 0 || delays.some((d) => !Number.isInteger(d) || d < 0)) {
    throw new ConfigError('Invalid configuration:\n  WEBHOOK_RETRY_DELAYS_MS: comma list of non-negative integers (ms)');
  }
  if (e.DATABASE_URL && !/^postgres(ql)?:\/\//.test(e.DATABASE_URL)) {
    throw new ConfigError('Invalid configuration:\n  DATABASE_URL: only postgres:// URLs are supported (unset = SQLite)');
  }
  if (e.REDIS_URL && !/^(rediss?:\/\/|\/)/.test(e.REDIS_URL)) {
    // Another scheme is not refused by the client: it would connect somewhere else, or nowhere, and count in process.
    throw new ConfigError('Invalid configuration:\n  REDIS_URL: a redis:// or rediss:// URL, or the path of a Unix socket (unset = counters in process)');
  }
  checkApiRoot('TELEGRAM_API_ROOT', e.TELEGRAM_API_ROOT);
  checkApiRoot('WHATSAPP_API_ROOT', e.WHATSAPP_API_ROOT);
  if (e.DATABASE_URL && (!e.JWT_SECRET || !e.SECRETS_KEY)) {
    // D29: nodes sharing one database must share these; a secret generated per node would split them.
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_URL is set, so JWT_SECRET and SECRETS_KEY must both be given (at least 32 characters each): ' +
        'every node sharing the database must use the same ones',
    );
  }
  for (const name of ['JWT_SECRET', 'SECRETS_KEY'] as const) {
    if (e[name] && e[name].length < 32) throw new ConfigError(`Invalid configuration:\n  ${name}: at least 32 characters`);
  }

  const publicUrl = e.PUBLIC_URL.trim().replace(/\/+$/, '');
  if (publicUrl) {
    let u: URL | null = null;
    try {
      u = new URL(publicUrl);
    } catch {
      // reported below
    }
    if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:') || u.pathname !== '/' || u.search || u.hash || u.username) {
      throw new ConfigError(`Invalid configuration:\n  PUBLIC_URL: an http(s) origin with no path, e.g. https://wallet.example.com (got ${JSON.stringify(e.PUBLIC_URL)})`);
    }
  }

  return {
    bankRail: e.BANK_RAIL,
    bind: e.BANK_RAIL === 'bind' ? parseBind(e) : null,
    sandbox: e.BANK_RAIL === 'sandbox',
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    maxRequestsInFlight: e.MAX_REQUESTS_IN_FLIGHT,
    postgres: {
      jobsPoolMax: e.DATABASE_JOBS_POOL_MAX,
      checkoutTimeoutMs: e.DATABASE_CHECKOUT_TIMEOUT_MS,
      maxWaiting: e.DATABASE_MAX_WAITING,
      statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      lockTimeoutMs: e.DATABASE_LOCK_TIMEOUT_MS,
      idleInTransactionTimeoutMs: e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    sqliteSync: e.SQLITE_SYNC,
    sqliteCacheMb: e.SQLITE_CACHE_MB,
    redisUrl: e.REDIS_URL,
    jwtSecret: e.JWT_SECRET,
    secretsKey: e.SECRETS_KEY,
    jwtExpirySeconds: Math.round(e.JWT_EXPIRY_HOURS * 3600),
    defaults: {
      perTxLimitArs: e.DEFAULT_PER_TX_LIMIT_ARS,
      dailyLimitArs: e.DEFAULT_DAILY_LIMIT_ARS,
      monthlyLimitArs: e.DEFAULT_MONTHLY_LIMIT_ARS,
      requireApprovalAboveArs: e.DEFAULT_REQUIRE_APPROVAL_ABOVE_ARS,
      whitelistCbus: list(e.DEFAULT_WHITELIST_CBUS),
    },
    absoluteCapArs: e.ABSOLUTE_CAP_ARS,
    approvalTtlSeconds: e.APPROVAL_TTL_SECONDS,
    approvalChannels: channels as ApprovalChannelName[],
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    ownerRateLimitPerMinute: e.OWNER_RATE_LIMIT_PER_MINUTE,
    safetyActionsPerMinute: e.SAFETY_ACTIONS_PER_MINUTE,
    payoutSubmissionGraceMs: e.PAYOUT_SUBMISSION_GRACE_MS,
    metricsToken: e.METRICS_TOKEN,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    allowedHosts: parseHosts(e.ALLOWED_HOSTS, e.HOST, e.PORT, publicUrl),
    webhook: {
      pollIntervalMs: e.WEBHOOK_POLL_INTERVAL_MS,
      retryDelaysMs: delays,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      allowPrivateNetworks: e.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    },
    sandboxConfirmDelayMs: e.SANDBOX_CONFIRM_DELAY_MS,
    jobsIntervalMs: e.JOBS_INTERVAL_MS,
    telegram: {
      botToken: e.TELEGRAM_BOT_TOKEN,
      webhookSecret: e.TELEGRAM_WEBHOOK_SECRET,
      apiRoot: e.TELEGRAM_API_ROOT,
      answerWithinMs: e.TELEGRAM_ANSWER_WITHIN_MS,
    },
    live: { pollMs: e.LIVE_POLL_MS, heartbeatMs: e.LIVE_HEARTBEAT_MS },
    whatsapp: {
      token: e.WHATSAPP_TOKEN,
      phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID,
      appSecret: e.WHATSAPP_APP_SECRET,
      verifyToken: e.WHATSAPP_VERIFY_TOKEN,
      template: { name: templateName, language: templateLanguage },
      limitsTemplate: limitsName ? { name: limitsName, language: limitsLanguage } : null,
      apiRoot: e.WHATSAPP_API_ROOT.replace(/\/+$/, ''),
    },
    logLevel: e.LOG_LEVEL,
  };
}

/**
 * The mutual-TLS files are read and checked at start: a missing file or one that is not PEM would otherwise surface
 * only as Node's bare ENOENT stack, or as a TLS error on every call to BIND with no setting named.
 */
function checkBindTls(e: Env): void {
  const read = (k: 'BIND_CLIENT_CERT_FILE' | 'BIND_CLIENT_KEY_FILE' | 'BIND_CA_FILE'): string | null => {
    if (!e[k]) return null;
    try {
      return readFileSync(e[k], 'utf8');
    } catch (err) {
      throw new ConfigError(`Invalid configuration:\n  ${k}: cannot read ${JSON.stringify(e[k])} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  };
  const check = (k: string, test: () => unknown, what: string) => {
    try {
      test();
    } catch (err) {
      throw new ConfigError(`Invalid configuration:\n  ${k}: ${JSON.stringify(e[k as keyof Env])} is not ${what} (${(err as Error).message})`);
    }
  };
  const cert = read('BIND_CLIENT_CERT_FILE');
  const key = read('BIND_CLIENT_KEY_FILE');
  const ca = read('BIND_CA_FILE');
  if (cert !== null && key !== null) {
    check('BIND_CLIENT_CERT_FILE', () => new X509Certificate(cert), 'a PEM certificate');
    check('BIND_CLIENT_KEY_FILE', () => createPrivateKey(key), 'a PEM private key');
    check('BIND_CLIENT_KEY_FILE', () => createSecureContext({ cert, key }), "the private key of BIND_CLIENT_CERT_FILE's certificate");
  }
  if (ca !== null) check('BIND_CA_FILE', () => new X509Certificate(ca), 'a PEM certificate');
}

function parseBind(e: Env): BindConfig {
  const required = ['BIND_API_URL', 'BIND_TOKEN_URL', 'BIND_CLIENT_ID', 'BIND_CLIENT_SECRET', 'BIND_WEBHOOK_TOKEN'] as const;
  const missing = required.filter((k) => !e[k]);
  if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n  BANK_RAIL=bind needs ${missing.join(', ')}`);
  for (const k of ['BIND_API_URL', 'BIND_TOKEN_URL'] as const) {
    if (!/^https?:\/\/[^\s]+$/.test(e[k])) throw new ConfigError(`Invalid configuration:\n  ${k}: an http(s) URL (got ${JSON.stringify(e[k])})`);
  }
  if (e.BIND_WEBHOOK_TOKEN.length < 24 || !/^[A-Za-z0-9_-]+$/.test(e.BIND_WEBHOOK_TOKEN)) {
    throw new ConfigError('Invalid configuration:\n  BIND_WEBHOOK_TOKEN: at least 24 characters of A-Z a-z 0-9 _ - (it is the secret part of the webhook URL)');
  }
  if (Boolean(e.BIND_CLIENT_CERT_FILE) !== Boolean(e.BIND_CLIENT_KEY_FILE)) {
    throw new ConfigError('Invalid configuration:\n  BIND_CLIENT_CERT_FILE and BIND_CLIENT_KEY_FILE: give both (mutual TLS) or neither');
  }
  checkBindTls(e);
  const ips = list(e.BIND_WEBHOOK_ALLOWED_IPS);
  for (const ip of ips) {
    const [addr, bits, ...rest] = ip.split('/');
    const family = isIP(addr ?? '');
    if (family === 0 || rest.length > 0 || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)))) {
      throw new ConfigError(`Invalid configuration:\n  BIND_WEBHOOK_ALLOWED_IPS: "${ip}" is not an IP address or CIDR`);
    }
  }
  return {
    apiUrl: e.BIND_API_URL.replace(/\/+$/, ''),
    tokenUrl: e.BIND_TOKEN_URL,
    clientId: e.BIND_CLIENT_ID,
    clientSecret: e.BIND_CLIENT_SECRET,
    scope: e.BIND_SCOPE,
    clientCertFile: e.BIND_CLIENT_CERT_FILE,
    clientKeyFile: e.BIND_CLIENT_KEY_FILE,
    caFile: e.BIND_CA_FILE,
    webhookToken: e.BIND_WEBHOOK_TOKEN,
    webhookAllowedIps: ips,
    timeoutMs: e.BIND_TIMEOUT_MS,
    reconcileIntervalMs: e.BIND_RECONCILE_INTERVAL_MS,
  };
}
