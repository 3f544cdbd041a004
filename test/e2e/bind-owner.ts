import { expect } from 'vitest';
import { startBindSimulator, type BindSimulator } from '../../src/modules/rail/bind/sim/bind-simulator.js';
import { Rest, uniqueEmail } from './api.js';
import { startServer, type RunningServer } from './server.js';

export interface BindOwner {
  sim: BindSimulator;
  srv: RunningServer;
  rest: Rest;
  email: string;
  password: string;
  /** The owner's session token. */
  owner: string;
  /** A session of an agent key with every scope. */
  agent: string;
  close(): Promise<void>;
}

/**
 * The service on the BIND simulator, with one owner signed up, onboarded and funded the way a bank does it (an
 * incoming transfer the simulator announces), and an agent's key: what the browser tests of the bank's faults share.
 * `env` adds or overrides the service's settings.
 */
export async function startBindOwner(opts: { tag: string; name: string; fundArs: string; env?: Record<string, string> }): Promise<BindOwner> {
  const webhookToken = `e2e-${opts.tag}-webhook-token-0123456789`;
  const sim = await startBindSimulator({ settleMs: 200 });
  const srv = await startServer({
    BANK_RAIL: 'bind',
    BIND_API_URL: sim.url,
    BIND_TOKEN_URL: sim.tokenUrl,
    BIND_CLIENT_ID: 'sim-client',
    BIND_CLIENT_SECRET: 'sim-secret',
    BIND_WEBHOOK_TOKEN: webhookToken,
    BIND_TIMEOUT_MS: '3000',
    ...opts.env,
  });
  sim.setWebhookUrl(`${srv.url}/v1/rails/bind/webhook/${webhookToken}`);
  const rest = new Rest(srv.url);
  const email = uniqueEmail(opts.tag);
  const password = 'una clave bien larga';
  const { token: owner, cvu } = await rest.newOwner({ email, password, name: opts.name, legalName: `${opts.name} Paz`, cuitPrefix: '27' });
  const credited = await fetch(`${sim.url}/__sim/incoming`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cvu, amount: opts.fundArs }),
  });
  expect(credited.status).toBe(200);
  const agent = await rest.agentToken((await rest.newKey(owner, 'compras')).key);
  return {
    sim,
    srv,
    rest,
    email,
    password,
    owner,
    agent,
    close: async () => {
      await srv.stop();
      await sim.close();
    },
  };
}
