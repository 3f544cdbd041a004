/**
 * The measured scenarios, in the order they run. Each names its target (the no-op server or the service), the
 * status every response should have, and how each request is built. Read-only and replay scenarios run before
 * the ones that create payouts, so the store they read is the same size whatever the duration.
 */
import type { RequestParts } from './load.js';
import { payoutBody, type Seed, type Wallet } from './setup.js';

export interface Scenario {
  name: string;
  label: string;
  target: 'noop' | 'service';
  method: string;
  path: string;
  expect: number;
  /** Creates payouts: its follow-up work (settlement, confirmation) is measured until the service is quiet. */
  createsPayouts: boolean;
  next?: () => RequestParts;
}

export interface ScenarioContext {
  wallets: Wallet[]; // funded, limits raised, agent token each
  seeds: Seed[]; // one existing payout per wallet
  soloAgent: string; // the one user of "payouts of one user"
  runId: string; // makes idempotency keys unique across runs on a reused database
}

const JSON_CT = { 'content-type': 'application/json' };

/** Round-robin over the wallets: payouts across many users, each with a fresh idempotency key. */
export function payoutsAcrossUsers(c: ScenarioContext, tag: string): () => RequestParts {
  let i = 0;
  const body = payoutBody(1);
  return () => {
    const n = i++;
    const w = c.wallets[n % c.wallets.length]!;
    return { headers: { ...JSON_CT, authorization: w.agent, 'idempotency-key': `bench-${c.runId}-${tag}-${n}` }, body };
  };
}

export function scenarios(c: ScenarioContext): Scenario[] {
  const rotate = <T>(items: T[], f: (x: T) => RequestParts) => {
    let i = 0;
    return () => f(items[i++ % items.length]!);
  };
  let solo = 0;
  const body = payoutBody(1);
  return [
    { name: 'noop', label: 'no-op (bare Fastify)', target: 'noop', method: 'GET', path: '/', expect: 200, createsPayouts: false },
    { name: 'healthz', label: 'GET /healthz', target: 'service', method: 'GET', path: '/healthz', expect: 200, createsPayouts: false },
    {
      name: 'balance',
      label: 'GET /v1/balance',
      target: 'service',
      method: 'GET',
      path: '/v1/balance',
      expect: 200,
      createsPayouts: false,
      next: rotate(c.wallets, (w) => ({ headers: { authorization: w.agent } })),
    },
    {
      name: 'payout-by-id',
      label: 'GET /v1/withdraws/{id}',
      target: 'service',
      method: 'GET',
      path: '/v1/withdraws/x',
      expect: 200,
      createsPayouts: false,
      next: rotate(c.seeds, (s) => ({ path: `/v1/withdraws/${s.id}`, headers: { authorization: s.agent } })),
    },
    {
      name: 'replay',
      label: 'POST /v1/withdraws replay',
      target: 'service',
      method: 'POST',
      path: '/v1/withdraws',
      expect: 201,
      createsPayouts: false,
      next: rotate(c.seeds, (s) => ({ headers: { ...JSON_CT, authorization: s.agent, 'idempotency-key': s.key }, body: s.body })),
    },
    {
      name: 'payouts',
      label: `payouts, ${c.wallets.length} users`,
      target: 'service',
      method: 'POST',
      path: '/v1/withdraws',
      expect: 201,
      createsPayouts: true,
      next: payoutsAcrossUsers(c, 'many'),
    },
    {
      name: 'payouts-one-user',
      label: 'payouts, one user',
      target: 'service',
      method: 'POST',
      path: '/v1/withdraws',
      expect: 201,
      createsPayouts: true,
      next: () => ({ headers: { ...JSON_CT, authorization: c.soloAgent, 'idempotency-key': `bench-${c.runId}-solo-${solo++}` }, body }),
    },
  ];
}

export const SCENARIO_NAMES = ['noop', 'healthz', 'balance', 'payout-by-id', 'replay', 'payouts', 'payouts-one-user'];
