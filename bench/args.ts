/** The command line of `npm run bench -- …` (node:util parseArgs). */
import { parseArgs } from 'node:util';
import { SCENARIO_NAMES } from './scenarios.js';

export const USAGE = `npm run bench -- [flags]

  default            the scenarios ${SCENARIO_NAMES.join(', ')}
  --webhooks         also: every payout user subscribed to a local receiver, then payouts again, and
                     delivery pace, backlog drain and confirmation latency (with --soak: during the soak)
  --soak N           instead: N payouts across the users, a line per 30 s window
  --idle-wallets N   instead: N onboarded wallets, then --idle-seconds of no traffic: CPU % and event-loop delay

  --store sqlite|postgres   (default sqlite; postgres: a fresh database by createdb, dropped at the end)
  --connections N    (default 50)          --duration S        seconds per scenario (default 10)
  --users N          payout users (default 1000)              --only a,b   scenarios to run (noop is always run)
  --idle-seconds S   (default 30)          --setup-concurrency N (default 8)
  --runner build|tsx the service from \`npm run build\` + node dist/main.js (default) or node --import tsx src/main.ts
  --service-env K=V  extra service setting, repeatable (e.g. SANDBOX_CONFIRM_DELAY_MS=2000)
  --pg-host H --pg-port P --pg-user U   (default 127.0.0.1 5432 postgres; a directory as H, such as
                     /var/run/postgresql, connects over PostgreSQL's Unix socket)
  --quiet-wait S     before each load, wait up to S s for other work on the machine to calm down (default 30)
  --json FILE        also write the figures as JSON      --max-minutes M  hard stop (default 60)
  --cpu-prof DIR     run the service under node --cpu-prof, writing its V8 profile into DIR at the end`;

export interface Args {
  store: 'sqlite' | 'postgres';
  connections: number;
  duration: number;
  users: number;
  only: string[] | null;
  webhooks: boolean;
  soak: number | null;
  idleWallets: number | null;
  idleSeconds: number;
  setupConcurrency: number;
  runner: 'build' | 'tsx';
  serviceEnv: Record<string, string>;
  cpuProfDir: string | null;
  pg: { host: string; port: string; user: string };
  json: string | null;
  maxMinutes: number;
  quietWait: number;
}

function int(name: string, v: string | undefined, def: number, min = 1): number {
  if (v === undefined) return def;
  const n = Number(v.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name}: expected an integer ≥ ${min}, got ${v}`);
  return n;
}

export function parse(argv: string[]): Args | null {
  const { values } = parseArgs({
    args: argv,
    options: {
      help: { type: 'boolean', short: 'h' },
      store: { type: 'string' },
      connections: { type: 'string' },
      duration: { type: 'string' },
      users: { type: 'string' },
      only: { type: 'string' },
      webhooks: { type: 'boolean' },
      soak: { type: 'string' },
      'idle-wallets': { type: 'string' },
      'idle-seconds': { type: 'string' },
      'setup-concurrency': { type: 'string' },
      runner: { type: 'string' },
      'service-env': { type: 'string', multiple: true },
      'pg-host': { type: 'string' },
      'pg-port': { type: 'string' },
      'pg-user': { type: 'string' },
      json: { type: 'string' },
      'max-minutes': { type: 'string' },
      'quiet-wait': { type: 'string' },
      'cpu-prof': { type: 'string' },
    },
    strict: true,
  });
  if (values.help) return null;
  const store = values.store ?? 'sqlite';
  if (store !== 'sqlite' && store !== 'postgres') throw new Error('--store: sqlite or postgres');
  const runner = values.runner ?? 'build';
  if (runner !== 'build' && runner !== 'tsx') throw new Error('--runner: build or tsx');
  const only = values.only ? values.only.split(',').map((s) => s.trim()) : null;
  for (const s of only ?? []) if (!SCENARIO_NAMES.includes(s)) throw new Error(`--only: unknown scenario ${s} (${SCENARIO_NAMES.join(', ')})`);
  const serviceEnv: Record<string, string> = {};
  for (const kv of values['service-env'] ?? []) {
    const i = kv.indexOf('=');
    if (i < 1) throw new Error(`--service-env: expected KEY=VALUE, got ${kv}`);
    serviceEnv[kv.slice(0, i)] = kv.slice(i + 1);
  }
  const soak = values.soak === undefined ? null : int('soak', values.soak, 0);
  const idleWallets = values['idle-wallets'] === undefined ? null : int('idle-wallets', values['idle-wallets'], 0);
  if (soak !== null && idleWallets !== null) throw new Error('--soak and --idle-wallets are separate runs');
  return {
    store,
    connections: int('connections', values.connections, 50),
    duration: int('duration', values.duration, 10),
    users: int('users', values.users, 1000),
    only,
    webhooks: values.webhooks ?? false,
    soak,
    idleWallets,
    idleSeconds: int('idle-seconds', values['idle-seconds'], 30),
    setupConcurrency: int('setup-concurrency', values['setup-concurrency'], 8),
    runner,
    serviceEnv,
    cpuProfDir: values['cpu-prof'] ?? null,
    pg: { host: values['pg-host'] ?? '127.0.0.1', port: values['pg-port'] ?? '5432', user: values['pg-user'] ?? 'postgres' },
    json: values.json ?? null,
    maxMinutes: int('max-minutes', values['max-minutes'], 60),
    quietWait: int('quiet-wait', values['quiet-wait'], 30, 0),
  };
}
