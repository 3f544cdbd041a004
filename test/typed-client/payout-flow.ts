/**
 * A newcomer's first payouts, written only against the types openapi-typescript generates from /openapi.json.
 * test/typed-client.test.ts generates `./api.d.ts` next to a copy of this file, type-checks the pair with tsc
 * and runs the copy against a listening server, so a schema that drifts from what this code relies on fails
 * at compile time, and one that drifts from what the server sends fails in the response check.
 *
 * It is left out of the project's tsconfig on purpose: the types it needs exist only at test time.
 */
import assert from 'node:assert/strict';
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './api.js';

export interface FlowInput {
  baseUrl: string;
  email: string;
  legalId: string;
  /** An outside account that the sandbox rail resolves. */
  destinationCbu: string;
  webhookUrl: string;
  /** Sees every response (the test checks each against the document). */
  middleware: Middleware;
}

export interface FlowOutcome {
  allowedId: string;
  heldId: string;
  heldStatusAfterApproval: string;
  receiptTitle: string;
  listed: number;
}

export async function runPayoutFlow(input: FlowInput): Promise<FlowOutcome> {
  const client = (token?: string) => {
    // JSON only: the receipt also comes as HTML and PDF, which this flow does not ask for.
    const c = createClient<paths, 'application/json'>({ baseUrl: input.baseUrl, headers: token ? { authorization: `Bearer ${token}` } : {} });
    c.use(input.middleware);
    return c;
  };
  const anonymous = client();

  // Sign up, log in as the owner, complete onboarding.
  const password = 'a long enough password';
  const signup = await anonymous.POST('/v1/users', { body: { email: input.email, password, name: 'Ana Integradora' } });
  assert.ok(signup.data, JSON.stringify(signup.error));
  const defaultKey: string = signup.data.default_api_key.key;
  const login = await anonymous.POST('/v1/login', { body: { email: input.email, password } });
  assert.ok(login.data);
  const owner = client(login.data.token);
  const onboarding = await owner.POST('/v1/onboarding', { body: { legal_id: input.legalId, legal_name: 'Ana Integradora' } });
  assert.ok(onboarding.data);
  assert.equal(onboarding.data.kyc_status, 'verified');

  // Fund the wallet, give the agent its own key and a session.
  const deposit = await owner.POST('/v1/sandbox/deposits', { body: { amount_ars: 50_000 } });
  assert.equal(deposit.data?.direction, 'credit');
  const key = await owner.POST('/v1/api-keys', { body: { name: 'payout-agent' } });
  assert.ok(key.data);
  const exchanged = await anonymous.POST('/v1/auth/token', { body: { api_key: key.data.key } });
  assert.ok(exchanged.data && exchanged.data.expires_in > 0);
  const agent = client(exchanged.data.token);
  // The list of keys is the owner's: an agent session gets 403.
  const keys = await owner.GET('/v1/api-keys');
  assert.deepEqual(keys.data?.api_keys.map((k) => k.name).sort(), ['default', 'payout-agent']);
  assert.equal((await agent.GET('/v1/api-keys')).error?.error, 'OWNER_SESSION_REQUIRED');
  assert.notEqual(defaultKey, key.data.key);

  // An agent session cannot change the limits; the owner sets them.
  const refused = await agent.PUT('/v1/thresholds', { body: { per_tx_limit_ars: 1 } });
  assert.equal(refused.error?.error, 'OWNER_SESSION_REQUIRED');
  const limits = { per_tx_limit_ars: 20_000, daily_limit_ars: 40_000, monthly_limit_ars: 100_000, whitelist_cbus: [], require_approval_above_ars: 1_000 };
  const put = await owner.PUT('/v1/thresholds', { body: limits });
  assert.equal(put.response.status, 204);
  const thresholds = await agent.GET('/v1/thresholds');
  assert.deepEqual(thresholds.data, limits);

  const balance = await agent.GET('/v1/balance');
  assert.equal(balance.data?.available, '50000.00');
  const cvu = await agent.GET('/v1/cvu');
  assert.equal(cvu.data?.cvu, onboarding.data.cvu);

  // Within the limits: allowed and submitted at once. A retry with the same key replays the answer.
  const allowedKey = `order-${input.email}-1`;
  const allowedBody = { amount_ars: 500, destination: input.destinationCbu, note: 'factura 0001-00000042' };
  const allowed = await agent.POST('/v1/withdraws', { params: { header: { 'idempotency-key': allowedKey } }, body: allowedBody });
  assert.equal(allowed.response.status, 201, JSON.stringify(allowed.error));
  assert.ok(allowed.data && allowed.data.decision === 'allow');
  const replay = await agent.POST('/v1/withdraws', { params: { header: { 'idempotency-key': allowedKey } }, body: allowedBody });
  assert.equal(replay.response.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(replay.data, allowed.data);
  const reused = await agent.POST('/v1/withdraws', { params: { header: { 'idempotency-key': allowedKey } }, body: { ...allowedBody, amount_ars: 501 } });
  assert.equal(reused.error?.error, 'IDEMPOTENCY_KEY_REUSED');

  // Above the approval threshold: held, answered at once with the approval to wait for.
  const held = await agent.POST('/v1/withdraws', {
    params: { header: { 'idempotency-key': `order-${input.email}-2` } },
    body: { amount_ars: 5_000, destination: input.destinationCbu, destination_kind: 'CBU' },
  });
  assert.equal(held.response.status, 202, JSON.stringify(held.error));
  assert.ok(held.data && held.data.status === 'pending_approval' && 'approval_id' in held.data);
  const approvalId = held.data.approval_id;
  assert.ok(held.data.reasons.includes('above_approval_threshold'));

  const denied = await agent.POST('/v1/withdraws', {
    params: { header: { 'idempotency-key': `order-${input.email}-3` } },
    body: { amount_ars: 10, destination: '123' },
  });
  assert.equal(denied.error?.error, 'PAYOUT_DENIED');

  // The owner sees what waits and approves it; the payout goes to the rail.
  const pending = await owner.GET('/v1/approvals', { params: { query: { status: 'pending' } } });
  assert.deepEqual(
    pending.data?.approvals.map((a) => a.id),
    [approvalId],
  );
  const approved = await owner.POST('/v1/approvals/{id}/approve', { params: { path: { id: approvalId } } });
  assert.equal(approved.data?.status, 'approved', JSON.stringify(approved.error));
  const again = await owner.POST('/v1/approvals/{id}/approve', { params: { path: { id: approvalId } } });
  assert.equal(again.error?.error, 'APPROVAL_ALREADY_DECIDED');
  const approval = await agent.GET('/v1/approvals/{id}', { params: { path: { id: approvalId } } });
  assert.equal(approval.data?.decided_via, 'dashboard');

  const payout = await agent.GET('/v1/withdraws/{id}', { params: { path: { id: held.data.id } } });
  assert.ok(payout.data);
  assert.equal(payout.data.api_key_name, 'payout-agent');
  const missing = await agent.GET('/v1/withdraws/{id}', { params: { path: { id: 'wd_doesnotexist' } } });
  assert.equal(missing.error?.error, 'NOT_FOUND');

  const list = await agent.GET('/v1/withdraws', { params: { query: { limit: 10 } } });
  assert.ok(list.data);
  assert.deepEqual(
    list.data.withdraws.map((w) => w.id),
    [held.data.id, allowed.data.id],
  );

  const receipt = await agent.GET('/v1/withdraws/{id}/receipt', { params: { path: { id: allowed.data.id }, query: { format: 'json' } } });
  assert.ok(receipt.data);
  assert.equal(receipt.data.payout_id, allowed.data.id);
  assert.equal(receipt.data.note, allowedBody.note);

  // The webhook, for the events of all this (the webhook and the approval channels are the owner's).
  const hook = await owner.PUT('/v1/webhook', { body: { url: input.webhookUrl, secret: 'a-secret-of-at-least-16' } });
  assert.equal(hook.data?.webhook.url, input.webhookUrl);
  const read = await owner.GET('/v1/webhook');
  assert.equal(read.data?.webhook?.id, hook.data?.webhook.id);
  const deliveries = await owner.GET('/v1/webhook/deliveries');
  assert.ok(Array.isArray(deliveries.data?.deliveries));

  const deposits = await agent.GET('/v1/deposits');
  assert.ok(deposits.data?.deposits.some((d) => d.direction === 'credit'));
  const channels = await owner.GET('/v1/approval-channels');
  assert.ok(channels.data?.channels.some((c) => c.name === 'dashboard'));

  return {
    allowedId: allowed.data.id,
    heldId: held.data.id,
    heldStatusAfterApproval: payout.data.status,
    receiptTitle: receipt.data.title,
    listed: list.data.withdraws.length,
  };
}
