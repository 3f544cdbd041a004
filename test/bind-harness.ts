import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { startBindSimulator, type BindSimulator, type FaultMode, type FaultOp } from '../src/modules/rail/bind/sim/bind-simulator.js';
import type { Deps } from '../src/app.js';
import { startTestApp, type TestApp } from './helpers.js';

/** The secret path segment tests give BIND_WEBHOOK_TOKEN. */
export const BIND_TEST_WEBHOOK_TOKEN = `whk${randomBytes(18).toString('hex')}`;

export interface BindTestApp {
  t: TestApp;
  sim: BindSimulator;
  /** The service's own base URL (it listens, so that the simulator can post its notices). */
  base: string;
  webhookUrl: string;
  /** Calls one of the simulator's control endpoints. */
  control<T = Record<string, unknown>>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Arms a fault for the next `count` calls of `op`; with `only`, for those about that reference alone. */
  fault(op: FaultOp, mode: FaultMode, count?: number, only?: string): Promise<void>;
  /** Books a credit of `pesos` to `cvu` at the simulator, notified `repeat` times (0: the webhook is lost). */
  credit(cvu: string, pesos: string, repeat?: number): Promise<string>;
  /** Waits until the simulator settled every transfer it has. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** The service with BANK_RAIL=bind against an in-process BIND simulator on port 0. */
export async function startBindTestApp(opts: { env?: Record<string, string>; deps?: Deps; settleMs?: number; listingMaxLength?: number } = {}): Promise<BindTestApp> {
  const sim = await startBindSimulator({ settleMs: opts.settleMs ?? 40, hangMs: 15_000, listingMaxLength: opts.listingMaxLength });
  const t = await startTestApp({
    env: {
      BANK_RAIL: 'bind',
      BIND_API_URL: sim.url,
      BIND_TOKEN_URL: sim.tokenUrl,
      BIND_CLIENT_ID: 'sim-client',
      BIND_CLIENT_SECRET: 'sim-secret',
      BIND_WEBHOOK_TOKEN: BIND_TEST_WEBHOOK_TOKEN,
      BIND_TIMEOUT_MS: '2000',
      ...opts.env,
    },
    deps: opts.deps,
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const webhookUrl = `${base}/v1/rails/bind/webhook/${BIND_TEST_WEBHOOK_TOKEN}`;
  sim.setWebhookUrl(webhookUrl);
  const control = async <T>(method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(`${sim.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as T };
  };
  return {
    t,
    sim,
    base,
    webhookUrl,
    control,
    fault: async (op, mode, count = 1, only?: string) => void (await control('POST', '/__sim/faults', { op, mode, count, only })),
    credit: async (cvu, pesos, repeat = 1) => {
      const r = await control<{ id: string }>('POST', '/__sim/incoming', { cvu, amount: pesos, repeat });
      if (r.status !== 200) throw new Error(`credit: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.id;
    },
    settled: () =>
      waitFor(async () => {
        const r = await control<{ transfers: { status: string }[] }>('GET', '/__sim/transfers');
        return r.body.transfers.every((x) => x.status !== 'IN_PROGRESS');
      }, 'the simulator to settle its transfers'),
    close: async () => {
      await t.close();
      await sim.close();
    },
  };
}

/** Polls `cond` until it holds, or fails after `ms` (a loaded machine is slow; never a fixed sleep). */
export async function waitFor(cond: () => Promise<boolean> | boolean, what: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
