import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from './app.js';
import { ConfigError, parseConfig, type Config } from './config.js';

/** D3: a secret not given in the environment is generated on first start and kept in DATA_DIR. */
function generatedSecret(dataDir: string, name: string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, name);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    const secret = randomBytes(48).toString('base64url');
    writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

function resolveSecrets(config: Config): Config {
  return {
    ...config,
    jwtSecret: config.jwtSecret || generatedSecret(config.dataDir, 'jwt-secret'),
    secretsKey: config.secretsKey || generatedSecret(config.dataDir, 'secrets-key'),
  };
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = resolveSecrets(parseConfig(process.env));
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const app = await buildApp(config);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 30_000).unref();
    app.close().then(
      () => {
        clearTimeout(force);
        process.exit(0);
      },
      (err) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (e) {
    // The usual first-run stumble (an earlier `npm start` still running): say what to do, not only Node's stack.
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    console.error(
      `${config.host}:${config.port} is already in use (another program, or an earlier npm start still running): ` +
        'stop it, or start this one on another port with PORT=<port>',
    );
    await app.close();
    process.exit(1);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
