import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, expectError, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { agentsOf, finishAuthorization, register, startAuthorization } from '../../../test/oauth-flow.js';

/** D44: one consent makes one agent, however many times (and however fast) the owner's approval arrives. */
describe('OAuth consent decided once', () => {
  let t: TestApp;
  let owner: OnboardedUser;

  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'http://localhost' } });
    owner = await createOnboardedUser(t.app);
  });
  afterAll(async () => t.close());

  /** The owner's approval from the browser the authorization `started` (its cookies go along). */
  const approve = (started: { uid?: string; cookie: string }, payload: Record<string, unknown> = {}) =>
    t.app.inject({ method: 'POST', url: `/v1/oauth/interactions/${started.uid}/approve`, headers: { ...bearer(owner.ownerToken), cookie: started.cookie }, payload });

  it('two approvals at once (two tabs, a double click) make one agent; the others are told it was decided', async () => {
    // Several rounds, the later approvals a little behind the first: one that read the authorization while another
    // was deciding it must be told it was decided (409), never that nothing waits (404).
    for (let round = 0; round < 6; round++) {
      const clientId = await register(t.app);
      const started = await startAuthorization(t.app, clientId);
      const before = (await agentsOf(t.app, owner)).length;
      const late = async (ms: number) => {
        await new Promise((r) => setTimeout(r, ms));
        return approve(started);
      };
      const answers = await Promise.all([approve(started), approve(started), late(round), late(round * 2)]);
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses, answers.map((a) => a.body).join('\n')).toEqual([200, 409, 409, 409]);
      for (const lost of answers.filter((a) => a.statusCode === 409)) expectError(lost, 409, 'APPROVAL_ALREADY_DECIDED');
      const agents = await agentsOf(t.app, owner);
      expect(agents.length).toBe(before + 1);
      expect(agents.filter((a) => a.kind === 'oauth' && a.id === answers.find((a) => a.statusCode === 200)!.json().agent.id)).toHaveLength(1);
    }
  });

  it('an approval and a refusal at once: one of them wins, and a refusal leaves no agent', async () => {
    const clientId = await register(t.app);
    const started = await startAuthorization(t.app, clientId);
    const before = (await agentsOf(t.app, owner)).length;
    const [ok, no] = await Promise.all([
      approve(started),
      t.app.inject({ method: 'POST', url: `/v1/oauth/interactions/${started.uid}/deny`, headers: { ...bearer(owner.ownerToken), cookie: started.cookie } }),
    ]);
    expect([ok.statusCode, no.statusCode].sort(), `${ok.body}\n${no.body}`).toEqual([200, 409]);
    expect((await agentsOf(t.app, owner)).length).toBe(before + (ok.statusCode === 200 ? 1 : 0));
  });

  it('an approval that fails frees the consent: the retry makes exactly one agent', async () => {
    const clientId = await register(t.app);
    const started = await startAuthorization(t.app, clientId);
    const before = (await agentsOf(t.app, owner)).length;
    // Refused after the consent is claimed (the expiry is checked against the clock, not the schema).
    expectError(await approve(started, { expires_at: new Date(t.clock.now().getTime() - 1000).toISOString() }), 400, 'INVALID_REQUEST');
    expect((await agentsOf(t.app, owner)).length).toBe(before);
    const done = await finishAuthorization(t.app, owner, clientId, started);
    expect(done.access_token).toBeTruthy();
    expect((await agentsOf(t.app, owner)).length).toBe(before + 1);
  });
});
