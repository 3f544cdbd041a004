import { describe, expect, it } from 'vitest';
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

describe('SQLite page cache (issue 13)', () => {
  it('is 64 MiB unless told, and refuses what is not a whole number of MiB from 2 up, naming the variable', () => {
    expect(parseConfig({}).sqliteCacheMb).toBe(64);
    expect(parseConfig({ SQLITE_CACHE_MB: '256' }).sqliteCacheMb).toBe(256);
    for (const bad of ['0', '1', '-5', '1.5', 'lots']) {
      expect(() => parseConfig({ SQLITE_CACHE_MB: bad })).toThrow(/SQLITE_CACHE_MB/);
    }
  });
});
