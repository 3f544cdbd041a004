/**
 * `npm run bench`: the service on SQLite over real HTTP, concurrent allowed payouts (unique idempotency keys)
 * against the same load on GET /healthz as a baseline. Bounded: a fixed number of requests, loopback only.
 *
 *   BENCH_PAYOUTS=2000 BENCH_CONCURRENCY=16 npm run bench
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { parseConfig } from '../src/config.js';

const TOTAL = Number(process.env.BENCH_PAYOUTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PER_USER = 55; // under the default 60 requests per minute per user: the limiter is not what is measured
const CBU = '2850590940090418135201';

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wallet-bench-'));
  const config = {
    ...parseConfig({ LOG_LEVEL: 'warn', JWT_SECRET: 'bench-secret-0123456789-abcdefghijklmnop', SECRETS_KEY: 'bench-secrets-key-0123456789-abcdefghijk', DATA_DIR: dataDir }),
    port: 0,
  };
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  // Setup goes in-process, each user from its own made-up client address, so the per-address limit on the
  // unauthenticated routes does not stall it; only the measured requests cross the loopback socket.
  let setupUser = 0;
  const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await app.inject({ method: 'POST', url, headers, payload: body as object, remoteAddress: `198.18.0.${setupUser % 250}` });
    return { status: res.statusCode, json: res.json() as Record<string, unknown> };
  };

  const users = Math.ceil(TOTAL / PER_USER);
  console.log(`setting up ${users} funded users (the per-user rate limit stays at ${config.rateLimitPerMinute}/min)…`);
  const tokens: string[] = [];
  for (let i = 0; i < users; i++) {
    setupUser = i;
    const u = await post('/v1/users', { email: `bench${i}-${Date.now()}@example.com`, password: 'bench password 123', name: `Bench ${i}` });
    const key = (u.json.default_api_key as { key: string }).key;
    const login = await post('/v1/login', { email: u.json.email, password: 'bench password 123' });
    const owner = { authorization: `Bearer ${login.json.token}` };
    const cuitBase = `20${String(10_000_000 + i)}`;
    const w = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
    const r = 11 - ([...cuitBase].reduce((s, d, j) => s + Number(d) * w[j]!, 0) % 11);
    await post('/v1/onboarding', { legal_id: `${cuitBase}${r === 11 ? 0 : r === 10 ? 9 : r}`, legal_name: `Bench ${i}` }, owner);
    await post('/v1/sandbox/deposits', { amount_ars: 10_000_000 }, owner);
    const agent = await post('/v1/auth/token', { api_key: key });
    tokens.push(`Bearer ${agent.json.token}`);
  }

  async function drive(label: string, one: (i: number) => Promise<number>) {
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < TOTAL; i = next++) {
          const t0 = performance.now();
          const status = await one(i);
          latencies.push(performance.now() - t0);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
    const result = { label, rps: TOTAL / seconds, p50: pct(50), p99: pct(99), statuses: Object.fromEntries(statuses) };
    console.log(
      `${label.padEnd(18)} ${result.rps.toFixed(1).padStart(8)} req/s   p50 ${result.p50.toFixed(2)} ms   p99 ${result.p99.toFixed(2)} ms   ${JSON.stringify(result.statuses)}`,
    );
    return result;
  }

  console.log(`\n${TOTAL} requests each, concurrency ${CONCURRENCY}, SQLite, ${new Date().toISOString()}`);
  const health = await drive('GET /healthz', async () => (await fetch(`${base}/healthz`)).status);
  const payouts = await drive('POST /v1/withdraws', async (i) => {
    const res = await fetch(`${base}/v1/withdraws`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: tokens[i % users]!, 'idempotency-key': `bench-${i}` },
      body: JSON.stringify({ amount_ars: 10, destination: CBU }),
    });
    await res.arrayBuffer();
    return res.status;
  });
  console.log(
    `\npayouts/s ${payouts.rps.toFixed(1)} = ${((payouts.rps / health.rps) * 100).toFixed(1)}% of the healthz baseline; ` +
      `p50 ×${(payouts.p50 / health.p50).toFixed(1)}, p99 ×${(payouts.p99 / health.p99).toFixed(1)}`,
  );
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
