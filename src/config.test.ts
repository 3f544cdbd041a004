import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../test/tls-cert.js';
import { ConfigError, parseConfig } from './config.js';

describe('configuration for several nodes (D29)', () => {
  const secret = 'x'.repeat(32);
  it('refuses PostgreSQL without explicit JWT_SECRET and SECRETS_KEY, naming both', () => {
    for (const env of [
      { DATABASE_URL: 'postgres://db/x' },
      { DATABASE_URL: 'postgres://db/x', JWT_SECRET: secret },
      { DATABASE_URL: 'postgres://db/x', SECRETS_KEY: secret },
    ]) {
      expect(() => parseConfig(env)).toThrow(ConfigError);
      expect(() => parseConfig(env)).toThrow(/JWT_SECRET and SECRETS_KEY/);
    }
    expect(parseConfig({ DATABASE_URL: 'postgres://db/x', JWT_SECRET: secret, SECRETS_KEY: secret }).databaseUrl).toBe('postgres://db/x');
  });
  it('SQLite still generates them once in DATA_DIR when unset', () => {
    expect(parseConfig({}).jwtSecret).toBe('');
  });
});

describe('PostgreSQL pool size', () => {
  it('is 10 unless told, and refuses what is not a whole number from 1 up, naming the variable', () => {
    expect(parseConfig({}).databasePoolMax).toBe(10);
    expect(parseConfig({ DATABASE_POOL_MAX: '4' }).databasePoolMax).toBe(4);
    for (const bad of ['0', '-1', '2.5', 'many']) {
      expect(() => parseConfig({ DATABASE_POOL_MAX: bad })).toThrow(/DATABASE_POOL_MAX/);
    }
    // Not only this one: a fraction was truncated for every whole-number setting.
    expect(() => parseConfig({ PORT: '3000.5' })).toThrow(/PORT: Expected a whole number \(got "3000.5"\)/);
  });
});

describe('SQLite page cache', () => {
  it('is 64 MiB unless told, and refuses what is not a whole number of MiB from 2 up, naming the variable', () => {
    expect(parseConfig({}).sqliteCacheMb).toBe(64);
    expect(parseConfig({ SQLITE_CACHE_MB: '256' }).sqliteCacheMb).toBe(256);
    for (const bad of ['0', '1', '-5', '1.5', 'lots']) {
      expect(() => parseConfig({ SQLITE_CACHE_MB: bad })).toThrow(/SQLITE_CACHE_MB/);
    }
  });
});

describe('the bank rail (D43)', () => {
  const bind = {
    BANK_RAIL: 'bind',
    BIND_API_URL: 'https://api.bindpagos.com.ar/',
    BIND_TOKEN_URL: 'https://login.example/oauth2/v2.0/token',
    BIND_CLIENT_ID: 'id',
    BIND_CLIENT_SECRET: 'secret',
    BIND_WEBHOOK_TOKEN: 'a'.repeat(32),
  };
  it('is the sandbox bank unless told, and only then are the sandbox helpers on (D26)', () => {
    expect(parseConfig({})).toMatchObject({ bankRail: 'sandbox', bind: null, sandbox: true });
    expect(parseConfig(bind)).toMatchObject({ bankRail: 'bind', sandbox: false, bind: { apiUrl: 'https://api.bindpagos.com.ar', timeoutMs: 10000 } });
    expect(() => parseConfig({ BANK_RAIL: 'other' })).toThrow(/BANK_RAIL/);
  });
  it("BIND's credentials without BANK_RAIL stop the start instead of running the sandbox bank where BIND was meant", () => {
    const { BANK_RAIL: _, ...credentials } = bind;
    expect(() => parseConfig(credentials)).toThrow(/BANK_RAIL: unset, but BIND_API_URL, BIND_TOKEN_URL, BIND_CLIENT_ID, BIND_CLIENT_SECRET are set.*BANK_RAIL=bind/);
    expect(() => parseConfig({ BIND_API_URL: bind.BIND_API_URL })).toThrow(/BANK_RAIL: unset, but BIND_API_URL is set/);
    expect(parseConfig({ ...credentials, BANK_RAIL: 'sandbox' })).toMatchObject({ bankRail: 'sandbox', bind: null });
    expect(parseConfig({ ...credentials, BANK_RAIL: 'bind' })).toMatchObject({ bankRail: 'bind' });
  });
  it('with BIND, a missing setting stops the start with a message naming it', () => {
    for (const key of Object.keys(bind).filter((k) => k !== 'BANK_RAIL')) {
      const env: Record<string, string> = { ...bind };
      delete env[key];
      expect(() => parseConfig(env)).toThrow(new RegExp(`BANK_RAIL=bind needs ${key}`));
    }
    expect(() => parseConfig({ ...bind, BIND_WEBHOOK_TOKEN: 'short' })).toThrow(/BIND_WEBHOOK_TOKEN/);
    expect(() => parseConfig({ ...bind, BIND_CLIENT_CERT_FILE: '/x.pem' })).toThrow(/BIND_CLIENT_KEY_FILE/);
    expect(() => parseConfig({ ...bind, BIND_WEBHOOK_ALLOWED_IPS: '10.0.0.0/33' })).toThrow(/BIND_WEBHOOK_ALLOWED_IPS/);
    expect(parseConfig({ ...bind, BIND_WEBHOOK_ALLOWED_IPS: '200.1.2.3, 10.0.0.0/8' }).bind?.webhookAllowedIps).toEqual(['200.1.2.3', '10.0.0.0/8']);
  });
  it('with BIND, a client certificate, key or CA that cannot be read or is not PEM stops the start naming the setting', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bind-tls-'));
    const file = (name: string, text: string) => (writeFileSync(path.join(dir, name), text), path.join(dir, name));
    const mine = selfSignedCertificate(['bind.test']);
    const cert = file('cert.pem', mine.cert);
    const key = file('key.pem', mine.key);
    const otherKey = file('other-key.pem', selfSignedCertificate(['bind.test']).key);
    const junk = file('junk.pem', 'not a certificate\n');
    const tls = (c: string, k: string, ca = '') => parseConfig({ ...bind, BIND_CLIENT_CERT_FILE: c, BIND_CLIENT_KEY_FILE: k, BIND_CA_FILE: ca });
    expect(tls(cert, key, cert).bind).toMatchObject({ clientCertFile: cert, clientKeyFile: key, caFile: cert });
    expect(() => tls(path.join(dir, 'missing.pem'), key)).toThrow(/BIND_CLIENT_CERT_FILE: cannot read .*missing\.pem.*ENOENT/);
    expect(() => tls(cert, path.join(dir, 'missing.pem'))).toThrow(/BIND_CLIENT_KEY_FILE: cannot read/);
    expect(() => tls(junk, key)).toThrow(/BIND_CLIENT_CERT_FILE: .* is not a PEM certificate/);
    expect(() => tls(cert, junk)).toThrow(/BIND_CLIENT_KEY_FILE: .* is not a PEM private key/);
    expect(() => tls(cert, otherKey)).toThrow(/BIND_CLIENT_KEY_FILE: .* is not the private key of BIND_CLIENT_CERT_FILE's certificate/);
    expect(() => tls(cert, key, junk)).toThrow(/BIND_CA_FILE: .* is not a PEM certificate/);
    expect(() => tls(cert, key, path.join(dir, 'missing.pem'))).toThrow(/BIND_CA_FILE: cannot read/);
  });
});

describe('PUBLIC_URL (D44)', () => {
  it('is empty unless told, keeps an origin without its trailing slash, and refuses a path or another scheme', () => {
    expect(parseConfig({}).publicUrl).toBe('');
    expect(parseConfig({ PUBLIC_URL: 'https://wallet.example.com/' }).publicUrl).toBe('https://wallet.example.com');
    expect(parseConfig({ PUBLIC_URL: 'http://127.0.0.1:3000' }).publicUrl).toBe('http://127.0.0.1:3000');
    for (const bad of ['wallet.example.com', 'ftp://wallet.example.com', 'https://wallet.example.com/api', 'https://u@wallet.example.com', 'https://x.com/?a=1']) {
      expect(() => parseConfig({ PUBLIC_URL: bad })).toThrow(/PUBLIC_URL/);
    }
  });
});

describe('the hosts /mcp answers to (D41)', () => {
  it('default to the listen address and the localhost forms with the listen port; any port when it is chosen at start', () => {
    expect(parseConfig({}).allowedHosts).toEqual(['127.0.0.1', 'localhost', '[::1]'].map((name) => ({ name, port: '3000' })));
    expect(parseConfig({ HOST: '0.0.0.0', PORT: '8080' }).allowedHosts.map((h) => `${h.name}:${h.port}`)).toEqual([
      '0.0.0.0:8080',
      '127.0.0.1:8080',
      'localhost:8080',
      '[::1]:8080',
    ]);
    expect(parseConfig({ HOST: '::', PORT: '0' }).allowedHosts).toContainEqual({ name: '[::]', port: null });
  });
  it('include the host of PUBLIC_URL unless ALLOWED_HOSTS is given: the name the OAuth resource announces', () => {
    expect(parseConfig({ PUBLIC_URL: 'https://wallet.example.com' }).allowedHosts).toContainEqual({ name: 'wallet.example.com', port: null });
    expect(parseConfig({ PUBLIC_URL: 'http://wallet.example.com:8080' }).allowedHosts).toContainEqual({ name: 'wallet.example.com', port: '8080' });
    expect(parseConfig({ PUBLIC_URL: 'https://wallet.example.com', ALLOWED_HOSTS: 'other.example' }).allowedHosts).toEqual([{ name: 'other.example', port: null }]);
  });
  it('take a comma list of hosts, with or without a port, and refuse anything else naming the entry', () => {
    expect(parseConfig({ ALLOWED_HOSTS: 'Wallet.Example.com, wallet.example.com:8443,[::1]:3000' }).allowedHosts).toEqual([
      { name: 'wallet.example.com', port: null },
      { name: 'wallet.example.com', port: '8443' },
      { name: '[::1]', port: '3000' },
    ]);
    for (const bad of ['https://wallet.example', 'wallet.example/mcp', 'host:99999', '::1']) {
      expect(() => parseConfig({ ALLOWED_HOSTS: bad })).toThrow(new RegExp(`ALLOWED_HOSTS: "${bad.replace(/[.:/]/g, '\\$&')}"`));
    }
  });
});

describe('a bad value names the variable and what it takes', () => {
  it('a setting that takes one of a few words lists them', () => {
    expect(() => parseConfig({ LOG_LEVEL: 'INFO' })).toThrow('LOG_LEVEL: Expected one of fatal, error, warn, info, debug, trace, silent (got "INFO")');
    expect(() => parseConfig({ SQLITE_SYNC: 'fast' })).toThrow('SQLITE_SYNC: Expected one of background, inline (got "fast")');
    expect(() => parseConfig({ BANK_RAIL: 'bnd' })).toThrow('BANK_RAIL: Expected one of sandbox, bind (got "bnd")');
  });

  it('a switch says it takes true or false', () => {
    expect(() => parseConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' })).toThrow('WEBHOOK_ALLOW_PRIVATE_NETWORKS: Expected true or false (got "yes")');
  });

  it('REDIS_URL must be a Redis URL (or a socket path): another scheme stops the start instead of counting in process', () => {
    expect(() => parseConfig({ REDIS_URL: 'http://cache:6379' })).toThrow(/REDIS_URL: a redis:\/\/ or rediss:\/\/ URL/);
    expect(() => parseConfig({ REDIS_URL: 'cache:6379' })).toThrow(ConfigError);
    expect(parseConfig({ REDIS_URL: 'redis://cache:6379' }).redisUrl).toBe('redis://cache:6379');
    expect(parseConfig({ REDIS_URL: 'rediss://:pw@cache:6380/1' }).redisUrl).toBe('rediss://:pw@cache:6380/1');
    expect(parseConfig({ REDIS_URL: '/run/redis.sock' }).redisUrl).toBe('/run/redis.sock');
  });

  it('the approval channels\' API roots must be http(s) URLs', () => {
    expect(() => parseConfig({ TELEGRAM_API_ROOT: 'api.telegram.org' })).toThrow(/TELEGRAM_API_ROOT: an http\(s\) URL/);
    expect(() => parseConfig({ WHATSAPP_API_ROOT: 'graph.facebook.com/v21.0' })).toThrow(/WHATSAPP_API_ROOT: an http\(s\) URL/);
    expect(parseConfig({ TELEGRAM_API_ROOT: 'http://127.0.0.1:8081' }).telegram.apiRoot).toBe('http://127.0.0.1:8081');
  });

  it('APPROVAL_TTL_SECONDS is at most 23 h, within the idempotency window: a retry while the approval is open answers that payout (D37)', () => {
    expect(parseConfig({}).approvalTtlSeconds).toBe(300);
    expect(parseConfig({ APPROVAL_TTL_SECONDS: '82800' }).approvalTtlSeconds).toBe(82800);
    expect(() => parseConfig({ APPROVAL_TTL_SECONDS: '86400' })).toThrow(ConfigError);
  });

  it('DATABASE_MAX_WAITING is at least 1: with 0 every checkout was refused, and the service could not start', () => {
    expect(parseConfig({}).postgres.maxWaiting).toBe(1000);
    expect(() => parseConfig({ DATABASE_MAX_WAITING: '0' })).toThrow(ConfigError);
  });

  it('TELEGRAM_ANSWER_WITHIN_MS is 5 s unless set, between 10 ms and 10 s (Telegram takes no later answer)', () => {
    expect(parseConfig({}).telegram.answerWithinMs).toBe(5000);
    expect(parseConfig({ TELEGRAM_ANSWER_WITHIN_MS: '2000' }).telegram.answerWithinMs).toBe(2000);
    expect(() => parseConfig({ TELEGRAM_ANSWER_WITHIN_MS: '20000' })).toThrow(ConfigError);
    expect(() => parseConfig({ TELEGRAM_ANSWER_WITHIN_MS: '5' })).toThrow(ConfigError);
  });
});

describe('amounts in pesos', () => {
  it('the WhatsApp limits template is name:language or nothing (then proposals of limits are not asked there)', () => {
    expect(parseConfig({}).whatsapp.limitsTemplate).toBeNull();
    expect(parseConfig({ WHATSAPP_LIMITS_TEMPLATE: 'cambio_limites:es_AR' }).whatsapp.limitsTemplate).toEqual({ name: 'cambio_limites', language: 'es_AR' });
    for (const bad of ['cambio_limites', ':es_AR', 'cambio_limites:']) {
      expect(() => parseConfig({ WHATSAPP_LIMITS_TEMPLATE: bad })).toThrow(/WHATSAPP_LIMITS_TEMPLATE: name:language/);
    }
  });

  it('a default limit or cap takes at most 2 decimals (centavos), naming the variable', () => {
    expect(() => parseConfig({ DEFAULT_PER_TX_LIMIT_ARS: '100.123' })).toThrow(/DEFAULT_PER_TX_LIMIT_ARS: Expected pesos with at most 2 decimals \(got "100.123"\)/);
    expect(parseConfig({ ABSOLUTE_CAP_ARS: '100.25' }).absoluteCapArs).toBe(100.25);
  });

  it('the absolute cap cannot be switched off with 0, as a limit can', () => {
    expect(() => parseConfig({ ABSOLUTE_CAP_ARS: '0' })).toThrow(/ABSOLUTE_CAP_ARS: .*greater than 0 \(got "0"\)/);
    expect(parseConfig({ DEFAULT_PER_TX_LIMIT_ARS: '0' }).defaults.perTxLimitArs).toBe(0);
  });

  it('every default whitelist entry must be a CBU, CVU or alias, else start fails naming it', () => {
    expect(() => parseConfig({ DEFAULT_WHITELIST_CBUS: '2850590940090418135201, 285059094009041813520' })).toThrow(
      /DEFAULT_WHITELIST_CBUS: "285059094009041813520" is not a valid CBU, CVU or alias/,
    );
    expect(parseConfig({ DEFAULT_WHITELIST_CBUS: '2850590940090418135201, mate.rio.sol' }).defaults.whitelistCbus).toEqual(['2850590940090418135201', 'mate.rio.sol']);
  });
});
