/**
 * What the owner-control race tests share: a rail whose resolve can be held to keep a payout request in flight,
 * agent keys, MCP calls read as REST outcomes, and the user's payouts and balance as the store has them.
 */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { BankRail } from '../src/modules/rail/rail.port.js';
import { bearer, type OnboardedUser } from './helpers.js';
export const OTHER_CBU = '0170099220000067797370';

/** A rail whose `resolve` (the first thing a payout does, before any lock) can be held, to stretch a request. */
export function gatedResolve() {
  let gate: Promise<void> | null = null;
  let release: () => void = () => {};
  let waiting = 0;
  const wrap = (rail: BankRail): BankRail =>
    Object.assign(Object.create(rail) as BankRail, {
      resolve: async (...a: Parameters<BankRail['resolve']>) => {
        if (gate) {
          waiting++;
          await gate;
        }
        return rail.resolve(...a);
      },
    });
  return {
    wrap,
    hold() {
      gate = new Promise<void>((r) => (release = r));
      waiting = 0;
    },
    release() {
      gate = null;
      release();
    },
    get waiting() {
      return waiting;
    },
  };
}

export async function newKey(app: FastifyInstance, u: OnboardedUser, body: Record<string, unknown> = {}) {
  const res = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(u.ownerToken), payload: { name: 'agent', ...body } });
  expect(res.statusCode, res.body).toBe(201);
  const key = res.json() as { id: string; key: string };
  const token = (await app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: key.key } })).json().token as string;
  return { id: key.id, key: key.key, token };
}

export const mcpCall = (app: FastifyInstance, credential: string, name: string, args: Record<string, unknown>) =>
  app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...bearer(credential), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
  });

/** A tool call's outcome as REST would say it: 201/202 with the body, or the error code and reasons. */
interface ToolCallBody {
  result?: { isError?: boolean; content: { text: string }[]; structuredContent: Record<string, unknown> };
  error?: unknown;
}
export function mcpOutcome(res: { statusCode: number; json(): unknown }): { status: 201 | 202 | 'error' | 'protocol_error'; body: Record<string, unknown> } {
  expect(res.statusCode).toBe(200);
  const { result, error } = res.json() as ToolCallBody;
  if (!result) return { status: 'protocol_error', body: { error } };
  if (result.isError) return { status: 'error', body: JSON.parse(result.content[0]!.text) as Record<string, unknown> };
  const s = result.structuredContent;
  return { status: s.status === 'pending_approval' ? 202 : 201, body: s };
}

export const payoutsOf = (app: FastifyInstance, userId: string) =>
  app.ctx.store.db.selectFrom('payouts').select(['id', 'amount', 'status', 'api_key_id', 'decision']).where('user_id', '=', userId).execute();

export const balanceOf = async (app: FastifyInstance, u: OnboardedUser) =>
  (await app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json().available as string;

export const allowedSum = (rows: { amount: number | string; decision: string }[]) => rows.filter((r) => r.decision === 'allow').reduce((s, r) => s + Number(r.amount), 0);
