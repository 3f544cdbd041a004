import { startBindSimulator } from './bind-simulator.js';

/**
 * `npm run bind-sim`: BIND's PSP API in memory, to rehearse against before BIND hands out credentials. A dev
 * tool, not the service: it reads its own settings here (the service's go through src/config.ts only).
 */
const port = Number(process.env.BIND_SIM_PORT ?? 4010);
const settleMs = Number(process.env.BIND_SIM_SETTLE_MS ?? 1000);
const sim = await startBindSimulator({
  port,
  host: process.env.BIND_SIM_HOST ?? '127.0.0.1',
  settleMs,
  webhookUrl: process.env.BIND_SIM_WEBHOOK_URL || undefined,
  clientId: process.env.BIND_SIM_CLIENT_ID ?? 'sim-client',
  clientSecret: process.env.BIND_SIM_CLIENT_SECRET ?? 'sim-secret',
});
console.log(`BIND simulator on ${sim.url} (token URL ${sim.tokenUrl}); transfers settle after ${settleMs} ms`);
console.log(process.env.BIND_SIM_WEBHOOK_URL ? `incoming notices go to ${process.env.BIND_SIM_WEBHOOK_URL}` : 'BIND_SIM_WEBHOOK_URL unset: incoming notices go nowhere');
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void sim.close().then(() => process.exit(0)));
}
