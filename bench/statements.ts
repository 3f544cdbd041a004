/**
 * `npm run bench:statements`: what one allowed payout costs the store, in one process (no HTTP load generator,
 * no other process). Creates USERS users (default 20) with a webhook each, then makes PAYOUTS payouts (2000),
 * PARALLEL at a time (20), through `app.inject`, and lists every statement by count per payout and time inside
 * the store. The sandbox confirms at once (SANDBOX_CONFIRM_DELAY_MS=0), so the list covers request, submission
 * and confirmation with their events and pending deliveries; background jobs are off, so deliveries are written
 * but not sent. BEGIN and COMMIT are listed too. NOLOG=1 skips the statement log (its own overhead) to read the
 * CPU per payout alone. RECEIVER=1 points the
 * webhooks at a local receiver in this process and then runs the delivery job, listing its statements and
 * the CPU per delivery (receiver included); its per-statement times include waiting behind the sends in flight,
 * so read its counts, not its times. SQLW=N prints N characters of each statement (150). Besides this process's
 * CPU per payout it prints PostgreSQL's (its backends for the test database) and the whole machine's, which
 * compare two versions more steadily than the rate does, and on PostgreSQL the round trips per payout. A profile to find work, not a figure for docs.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { machineBusyMs, postgresBackendsCpuMs } from './proc-cpu.js';
import { bearer, createOnboardedUser, EXTERNAL_CBU, setThresholds, startTestApp } from '../test/helpers.js';

const USERS = Number(process.env.USERS ?? 20);
const PAYOUTS = Number(process.env.PAYOUTS ?? 2000);
const PARALLEL = Number(process.env.PARALLEL ?? 20);

// RECEIVER=1: webhooks point at a local receiver that answers 200, and the delivery pass is measured too.
const RECEIVER = process.env.RECEIVER === '1';
let received = 0;
const receiver = RECEIVER
  ? http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received++;
        res.end('ok');
      });
    })
  : null;
if (receiver) await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const hookUrl = receiver ? `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook` : 'http://127.0.0.1:9/hook';

// Every write node-postgres makes to the server (a lone statement or a batch) is a round trip; counted while
// capturing. Patched before the store opens, since the store's wrapper keeps the method it finds.
let roundTrips = 0;
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (capturing) roundTrips++;
  return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof clientQuery;

interface Stat {
  n: number;
  ms: number;
}
const stats = new Map<string, Stat>();
let capturing = false;
const t = await startTestApp({
  env: { JWT_EXPIRY_HOURS: '8760', SANDBOX_CONFIRM_DELAY_MS: '0', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
  deps: process.env.NOLOG ? {} : {
    onQuery: (text, _p, ms) => {
      if (!capturing) return;
      const s = stats.get(text) ?? { n: 0, ms: 0 };
      s.n++;
      s.ms += ms;
      stats.set(text, s);
    },
  },
});
const app = t.app;
const users: Awaited<ReturnType<typeof createOnboardedUser>>[] = [];
for (let i = 0; i < USERS; i++) {
  const u = await createOnboardedUser(app, { fundArs: 10_000_000 });
  await setThresholds(app, u.ownerToken, { per_tx_limit_ars: 1_000_000, daily_limit_ars: 1e10, monthly_limit_ars: 1e11, require_approval_above_ars: 0, whitelist_cbus: [] });
  await app.inject({ method: 'PUT', url: '/v1/webhook', headers: bearer(u.ownerToken), payload: { url: hookUrl, secret: 'a-secret-of-16-chars' } });
  users.push(u);
}
capturing = true;
const dbName = t.config.databaseUrl ? new URL(t.config.databaseUrl).pathname.slice(1) : null;
const pg0 = dbName ? postgresBackendsCpuMs(dbName).ms : 0;
const machine0 = machineBusyMs();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let next = 0;
const codes = new Map<number, number>();
await Promise.all(
  Array.from({ length: PARALLEL }, async () => {
    while (next < PAYOUTS) {
      const u = users[next++ % USERS]!;
      const res = await app.inject({
        method: 'POST',
        url: '/v1/withdraws',
        headers: { ...bearer(u.agentToken), 'idempotency-key': randomBytes(8).toString('hex') },
        payload: { amount_ars: 1, destination: EXTERNAL_CBU },
      });
      codes.set(res.statusCode, (codes.get(res.statusCode) ?? 0) + 1);
    }
  }),
);
const wall = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const machineMs = machineBusyMs() - machine0;
const pgMs = dbName ? postgresBackendsCpuMs(dbName).ms - pg0 : null;
const reqTrips = roundTrips;
const reqStats = new Map(stats);
stats.clear();
await t.app.jobs.railSettlement!.runOnce();
await t.app.jobs.payoutFollowUp!.runOnce();
const jobStats = new Map(stats);
stats.clear();
let deliveryLine = '';
if (RECEIVER) {
  const c0 = process.cpuUsage();
  const d0 = performance.now();
  await t.app.jobs.webhookDelivery!.runOnce();
  const c = process.cpuUsage(c0);
  deliveryLine = `${received} deliveries in ${(performance.now() - d0).toFixed(0)} ms; CPU ${((c.user + c.system) / 1000 / Math.max(received, 1)).toFixed(3)} ms per delivery (receiver included)`;
}
capturing = false;

const show = (title: string, m: Map<string, Stat>) => {
  const rows = [...m.entries()].sort((a, b) => b[1].ms - a[1].ms);
  const n = rows.reduce((s, [, v]) => s + v.n, 0);
  const ms = rows.reduce((s, [, v]) => s + v.ms, 0);
  console.log(`\n${title}: ${(n / PAYOUTS).toFixed(1)} statements per payout, ${(ms / PAYOUTS).toFixed(3)} ms in the store per payout`);
  for (const [q, v] of rows.slice(0, 40)) console.log(`${(v.n / PAYOUTS).toFixed(2).padStart(6)} × ${((v.ms / v.n) * 1000).toFixed(0).padStart(5)} µs  ${q.slice(0, Number(process.env.SQLW ?? 150))}`);
};
console.log(`statuses ${JSON.stringify(Object.fromEntries(codes))}; ${PAYOUTS} payouts in ${wall.toFixed(0)} ms = ${((PAYOUTS / wall) * 1000).toFixed(0)}/s; CPU ${((cpu.user + cpu.system) / 1000 / PAYOUTS).toFixed(3)} ms per payout (user ${(cpu.user / 1000 / PAYOUTS).toFixed(3)}, system ${(cpu.system / 1000 / PAYOUTS).toFixed(3)})` +
    `${pgMs === null ? '' : `; PostgreSQL ${(pgMs / PAYOUTS).toFixed(3)} ms`}; whole machine ${(machineMs / PAYOUTS).toFixed(3)} ms` +
    `${dbName ? `; ${(reqTrips / PAYOUTS).toFixed(1)} round trips per payout on the request path, ${((roundTrips - reqTrips) / PAYOUTS).toFixed(1)} in the jobs after` : ''}`);
show('request path', reqStats);
show('jobs after (settlement, follow-up)', jobStats);
if (RECEIVER) {
  console.log(`\n${deliveryLine}`);
  show('delivery pass (statements per payout)', stats);
}
await t.close();
receiver?.close();
