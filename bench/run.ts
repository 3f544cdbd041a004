/**
 * `npm run bench`: the service and a bare Fastify no-op server as separate processes, loaded in turn by
 * autocannon from this third process with the same connections and duration; per scenario req/s, p50, p99,
 * server CPU ms per request (from /proc) and the ratio to the no-op. `--store postgres`, `--webhooks`,
 * `--soak N` and `--idle-wallets N` are the other modes (bench/args.ts). Loopback only; every child stops when
 * the run ends, fails, is interrupted or passes --max-minutes.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { USAGE, parse, type Args } from './args.js';
import { checkConfirmations, confirmationLine } from './confirmations.js';
import { idle, idleLines } from './idle.js';
import { runLoad, untilMachineQuiet, untilQuiet, type Measured } from './load.js';
import {
  ROOT,
  buildService,
  cleanupAll,
  createPostgresDatabase,
  makeWorkDir,
  serviceLogProblems,
  startNoop,
  startReceiver,
  startService,
  type Child,
} from './processes.js';
import { expectedShare, scenarioTable, statusText, type ScenarioRow } from './report.js';
import { payoutsAcrossUsers, scenarios, type ScenarioContext } from './scenarios.js';
import { call, createWallets, seedPayouts, subscribeWebhooks } from './setup.js';
import { soak } from './soak.js';
import { deliveryLines, measureDeliveries, receiverStats, resetReceiver } from './webhooks.js';

function machine(): { date: string; cpus: string; memory: string; node: string; autocannon: string; commit: string } {
  const git = (...a: string[]) => {
    try {
      return execFileSync('git', a, { cwd: ROOT, encoding: 'utf8' }).trim();
    } catch {
      return '?';
    }
  };
  const acVersion = (JSON.parse(readFileSync(path.join(ROOT, 'node_modules/autocannon/package.json'), 'utf8')) as { version: string }).version;
  return {
    date: new Date().toISOString(),
    cpus: `${os.availableParallelism()} × ${os.cpus()[0]?.model ?? '?'}`,
    memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    node: process.version,
    autocannon: acVersion,
    // The service is what src/ holds: name the last commit that changed it, not the bench's own.
    commit: `${git('log', '-1', '--format=%h', '--', 'src')}${git('status', '--porcelain', '--', 'src') ? ' (src modified)' : ''}`,
  };
}

/** At least this share of responses must have the expected status, or the scenario measured something else. */
const MIN_EXPECTED_SHARE = 0.99;

async function main(args: Args): Promise<number> {
  const info = machine();
  const confirmDelayMs = Number(args.serviceEnv.SANDBOX_CONFIRM_DELAY_MS ?? 2000);
  const mode = args.idleWallets !== null ? 'idle' : args.soak !== null ? 'soak' : 'scenarios';
  console.log(`wallet bench — ${info.date}`);
  console.log(`machine: ${info.cpus}, ${info.memory}, Node ${info.node}, autocannon ${info.autocannon}, service at ${info.commit}`);
  console.log(
    `store ${args.store}; mode ${mode}; ${args.connections} connections` +
      (mode === 'scenarios' ? `, ${args.duration} s per scenario, ${args.users} payout users` : '') +
      `; service from ${args.runner === 'build' ? 'npm run build + node dist/main.js' : 'tsx'}` +
      (Object.keys(args.serviceEnv).length ? `; service env ${JSON.stringify(args.serviceEnv)}` : ''),
  );
  const out: Record<string, unknown> = { machine: info, args };

  if (args.runner === 'build') buildService();
  const workDir = makeWorkDir();
  let databaseUrl = '';
  let pgDatabase: string | undefined;
  if (args.store === 'postgres') {
    const db = createPostgresDatabase(args.pg.host, args.pg.user, args.pg.port);
    databaseUrl = db.url;
    pgDatabase = db.name;
  }
  const service = await startService({ runner: args.runner, workDir, databaseUrl, env: args.serviceEnv, cpuProfDir: args.cpuProfDir });
  const noop: Child | null = mode === 'soak' ? null : await startNoop(workDir);
  const receiver: Child | null = args.webhooks ? await startReceiver(workDir) : null;
  const measured: Measured = { serverPid: service.pid, pgDatabase };
  const runId = randomBytes(3).toString('hex');
  let failed = false;

  if (mode === 'idle') {
    console.log(`\nsetup: ${args.idleWallets} onboarded, funded wallets (concurrency ${args.setupConcurrency})…`);
    await createWallets(service.url, { count: args.idleWallets!, concurrency: args.setupConcurrency, fundArs: 1000, forPayouts: false, tag: runId });
    const quiet = await untilQuiet(service.pid, confirmDelayMs + 3000, 300_000);
    await untilMachineQuiet(25, args.quietWait * 1000);
    console.log(`  service quiet ${(quiet.waitedMs / 1000).toFixed(0)} s after setup; idle for ${args.idleSeconds} s…`);
    const r = await idle(service.url, noop!.url, service.pid, args.idleSeconds);
    console.log(`\nidle, ${args.idleWallets} onboarded wallets:`);
    for (const l of idleLines(r)) console.log(l);
    out.idle = { wallets: args.idleWallets, ...r };
    failed ||= !r.ok;
  } else {
    const extra = mode === 'scenarios' ? 1 : 0;
    console.log(`\nsetup: ${args.users + extra} users, onboarded, funded, limits raised, agent tokens (concurrency ${args.setupConcurrency})…`);
    const all = await createWallets(service.url, { count: args.users + extra, concurrency: args.setupConcurrency, fundArs: 10_000_000, forPayouts: true, tag: runId });
    const wallets = all.slice(0, args.users);
    const seeds = mode === 'scenarios' ? await seedPayouts(service.url, wallets, args.setupConcurrency) : [];
    const ctx: ScenarioContext = { wallets, seeds, soloAgent: all[args.users]?.agent ?? '', runId };
    // Subscribed only right before the load they are for: the plain payout scenarios measure payouts without
    // webhooks, as their rows say, whatever flags the run has.
    const subscribe = async (r: Child) => {
      await subscribeWebhooks(service.url, wallets, `${r.url}/hooks`, args.setupConcurrency);
      await untilQuiet(service.pid, 0, 60_000);
    };
    const quiet = await untilQuiet(service.pid, confirmDelayMs + 1500);
    console.log(`  service quiet ${(quiet.waitedMs / 1000).toFixed(0)} s after setup`);

    if (mode === 'soak') {
      if (receiver) {
        await subscribe(receiver);
        await resetReceiver(receiver.url);
      }
      await untilMachineQuiet(25, args.quietWait * 1000);
      const s = await soak(service.url, ctx, args.soak!, args.connections, measured);
      const atEnd = receiver ? await receiverStats(receiver.url) : null;
      console.log(
        `\nsoak: ${s.result.completed} requests in ${((s.result.finishedAt - s.result.startedAt) / 1000).toFixed(0)} s = ${s.result.rps.toFixed(0)}/s; ` +
          `statuses ${statusText(s.result.statuses)}${s.result.errors ? `, ${s.result.errors} errors` : ''}; server CPU ${(s.result.serverCpuMs / s.result.completed).toFixed(3)} ms/payout`,
      );
      console.log(
        `  last window ${s.lastRps.toFixed(0)}/s vs first ${s.firstRps.toFixed(0)}/s = ${(s.lastVsFirst * 100).toFixed(0)} % (target ≥ 80 %); ` +
          `worst window p99 ${s.maxP99.toFixed(1)} ms (target ≤ 100 ms): ${s.ok ? 'meets' : 'MISSES'} the soak targets`,
      );
      out.soak = { n: args.soak, ...s };
      failed ||= !s.ok;
      if (receiver && atEnd) {
        const d = await measureDeliveries(receiver.url, s.result, atEnd, confirmDelayMs);
        console.log('\nwebhooks during the soak:');
        for (const l of deliveryLines(d)) console.log(l);
        out.webhooks = d;
        failed ||= !d.ok;
      }
      await untilQuiet(service.pid, confirmDelayMs + 1500);
      const c = await checkConfirmations(service.url, wallets, `bench-${runId}-soak-`, confirmDelayMs + 2000, s.result.finishedAt);
      console.log(confirmationLine(c));
      out.confirmations = c;
    } else {
      const rows: ScenarioRow[] = [];
      for (const sc of scenarios(ctx)) {
        if (args.only && sc.name !== 'noop' && !args.only.includes(sc.name)) continue;
        const target = sc.target === 'noop' ? noop! : service;
        await untilQuiet(service.pid, 0, 60_000);
        await untilMachineQuiet(25, args.quietWait * 1000);
        process.stdout.write(`\n${sc.label}: ${args.connections} connections, ${args.duration} s… `);
        const m: Measured = sc.target === 'noop' ? { serverPid: target.pid } : measured;
        const result = await runLoad(
          { url: target.url, method: sc.method, path: sc.path, connections: args.connections, durationS: args.duration, next: sc.next },
          m,
        );
        let cpuWithFollowUpMs: number | null = null;
        if (sc.createsPayouts) {
          // The load's own CPU plus what it left behind (settlement, confirmation) until the service is quiet.
          const end = await untilQuiet(service.pid, confirmDelayMs + 1500);
          cpuWithFollowUpMs = end.cpuMs - result.serverCpuAtStart;
        }
        const share = expectedShare(result, sc.expect);
        const ok = share >= MIN_EXPECTED_SHARE && result.errors === 0;
        console.log(`${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms; ${statusText(result.statuses)}`);
        if (!ok) {
          console.error(
            `  ✗ ${sc.label}: only ${(share * 100).toFixed(1)} % of ${result.completed} responses were ${sc.expect}` +
              `${result.errors ? `, ${result.errors} request errors` : ''}: this figure does not measure what it says`,
          );
          failed = true;
        }
        rows.push({ name: sc.name, label: sc.label, expect: sc.expect, result, cpuWithFollowUpMs, ok });
        // Replays must not create payouts: the first seed's user still has exactly its one payout.
        if (sc.name === 'replay' && seeds[0]) {
          const list = await call(service.url, 'GET', '/v1/withdraws?limit=5', { auth: seeds[0].agent });
          const n = (list.json.withdraws as unknown[] | undefined)?.length;
          if (n !== 1) {
            console.error(`  ✗ replays created payouts: the first seed user has ${n} payouts, expected 1`);
            failed = true;
          }
        }
      }

      if (receiver) {
        await subscribe(receiver);
        await untilMachineQuiet(25, args.quietWait * 1000);
        await resetReceiver(receiver.url);
        process.stdout.write(`\npayouts, ${wallets.length} users, every one subscribed to a webhook: ${args.connections} connections, ${args.duration} s… `);
        const result = await runLoad(
          { url: service.url, method: 'POST', path: '/v1/withdraws', connections: args.connections, durationS: args.duration, next: payoutsAcrossUsers(ctx, 'hooks') },
          measured,
        );
        const atEnd = await receiverStats(receiver.url);
        console.log(`${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms; ${statusText(result.statuses)}`);
        const d = await measureDeliveries(receiver.url, result, atEnd, confirmDelayMs);
        const end = await untilQuiet(service.pid, 0);
        const ok = expectedShare(result, 201) >= MIN_EXPECTED_SHARE && result.errors === 0;
        rows.push({
          name: 'payouts-webhooks',
          label: `payouts, ${wallets.length} users + webhooks`,
          expect: 201,
          result,
          cpuWithFollowUpMs: end.cpuMs - result.serverCpuAtStart,
          ok,
        });
        for (const l of deliveryLines(d)) console.log(l);
        const c = await checkConfirmations(service.url, wallets, `bench-${runId}-hooks-`, confirmDelayMs + 2000, result.finishedAt);
        console.log(confirmationLine(c));
        out.webhooks = { ...d, readBack: c };
        failed ||= !ok || !d.ok || !c.ok;
      }

      console.log(`\n${args.store === 'postgres' ? 'PostgreSQL' : 'SQLite'}, ${args.connections} connections, ${args.duration} s each, ${info.date.slice(0, 10)}:\n`);
      console.log(scenarioTable(rows, args.store === 'postgres'));
      const noopRps = rows.find((r) => r.name === 'noop')?.result.rps;
      out.scenarios = rows.map((r) => ({ ...r, vsNoop: noopRps ? r.result.rps / noopRps : null }));
    }
  }

  const problems = serviceLogProblems(service.logFile);
  if (problems.warn || problems.error) {
    console.log(`\nservice log: ${problems.error} error and ${problems.warn} warning lines, e.g.:`);
    for (const s of problems.samples) console.log(`  ${s}`);
  }
  out.serviceLog = problems;
  if (args.json) writeFileSync(args.json, JSON.stringify(out, null, 2));
  await service.stop();
  await noop?.stop();
  await receiver?.stop();
  return failed ? 1 : 0;
}

let args: Args | null;
try {
  args = parse(process.argv.slice(2));
} catch (e) {
  console.error(`${(e as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (!args) {
  console.log(USAGE);
  process.exit(0);
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(sig, () => {
    console.error(`\n${sig}: stopping`);
    cleanupAll();
    process.exit(130);
  });
}
process.on('exit', () => cleanupAll());
const watchdog = setTimeout(() => {
  console.error(`\n--max-minutes ${args.maxMinutes} passed: stopping`);
  cleanupAll();
  process.exit(1);
}, args.maxMinutes * 60_000);
watchdog.unref();
main(args).then(
  (code) => {
    cleanupAll();
    process.exit(code);
  },
  (e) => {
    console.error(e);
    cleanupAll();
    process.exit(1);
  },
);
