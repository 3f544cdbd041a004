import { expect } from 'vitest';
import { startBindSimulator, type BindSimulator } from '../../src/modules/rail/bind/sim/bind-simulator.js';
import { randomCuit, Rest, uniqueEmail } from './api.js';
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
  expect((await rest.call('POST', '/v1/users', { body: { email, password, name: opts.name } })).status).toBe(201);
  const owner = await rest.ownerToken(email, password);
  const onboarded = await rest.call('POST', '/v1/onboarding', { token: owner, body: { legal_id: randomCuit('27'), legal_name: `${opts.name} Paz` } });
  expect(onboarded.status).toBe(200);
  const credited = await fetch(`${sim.url}/__sim/incoming`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cvu: onboarded.json.cvu, amount: opts.fundArs }),
  });
  expect(credited.status).toBe(200);
  const key = await rest.call('POST', '/v1/api-keys', { token: owner, body: { name: 'compras' } });
  const agent = await rest.agentToken(key.json.key as string);
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
