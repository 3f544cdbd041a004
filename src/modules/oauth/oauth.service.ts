import { findControlCharacter } from '../../http/control-chars.js';
import { ownerTextProblem } from '../../http/owner-text.js';
import type { AppContext } from '../../context.js';
import { writeAudit } from '../audit/audit.service.js';
import { AppError } from '../../shared/errors.js';
import type { Principal } from '../auth/auth.service.js';
import { SCOPES, type KeyControlsInput } from '../keys/key-controls.js';
import { createApiKey, deleteApiKey, findActiveOAuthKey, findOAuthAgentOfClient, putBackApiKey, setOAuthGrant, updateApiKeyFrom, type ApiKeyView, type KeyChange } from '../keys/keys.service.js';
import { claimInteraction, keepClient, releaseUse, revokeGrantRecords } from './oauth.adapter.js';
import type { OAuthServer } from './oauth.provider.js';

/** What the owner sees before deciding: which app asks, for what, and where its answer goes. */
export interface InteractionView {
  uid: string;
  client: { client_id: string; client_name: string | null; client_uri: string | null; logo_uri: string | null };
  redirect_uri: string;
  /** The scopes the app asked for, known to the service; the owner may grant fewer. */
  requested_scopes: string[];
  resource: string;
  expires_at: string;
  /**
   * The live agent this app already is for the owner, which approving updates: the consent page starts from its
   * name, scopes, limits, allowlist and expiry, so approving again never clears what the owner set on it. Null for
   * an app not connected yet (or whose agent was revoked or expired).
   */
  agent: ApiKeyView | null;
}

/**
 * A pending authorization (not yet decided, not expired), with its client; anything else is "not found". To a
 * decision (`deciding`), one already decided is a conflict instead: the owner is told it was, not that it vanished.
 */
async function pending(oauth: OAuthServer, uid: string, browser: BrowserCookies, deciding = false) {
  // D44: only the browser the authorization sent here sees or decides it; a link opened elsewhere finds nothing, so
  // a code never reaches a browser other than the owner's (someone sending the owner their own /connect/<id> link).
  if (!oauth.isConsentBrowser(browser.cookie, uid)) {
    throw new AppError('NOT_FOUND', 'No authorization is waiting under this id in this browser: open the link the app gave you in the browser where you started');
  }
  const provider = oauth.provider();
  const interaction = await provider.Interaction.find(uid);
  if (interaction?.result && deciding) throw alreadyDecided();
  if (!interaction || interaction.result) throw new AppError('NOT_FOUND', 'No authorization is waiting under this id (it may have expired or been decided)');
  const clientId = String(interaction.params.client_id ?? '');
  const client = clientId ? await provider.Client.find(clientId) : undefined;
  if (!client) throw new AppError('NOT_FOUND', 'The app of this authorization is no longer registered');
  return { interaction, client };
}

/** The Cookie header of the owner's request. */
export interface BrowserCookies {
  cookie: string | undefined;
}

const alreadyDecided = () => new AppError('APPROVAL_ALREADY_DECIDED', 'This authorization was already approved or refused (in another tab or device?)');

/**
 * D44: one decision per interaction. `decide` runs only for the decision that claimed the interaction; a second one
 * arriving meanwhile gets APPROVAL_ALREADY_DECIDED and changes nothing. If `decide` fails, `undo` removes what it
 * made and the claim is given back, so the owner's retry starts clean.
 */
async function decideOnce<T>(ctx: AppContext, uid: string, decide: () => Promise<T>, undo: () => Promise<void> = async () => {}): Promise<T> {
  if (!(await claimInteraction(ctx.store, uid))) throw alreadyDecided();
  try {
    return await decide();
  } catch (e) {
    try {
      await undo();
      await releaseUse(ctx.store, 'Interaction', uid);
    } catch (cleanupError) {
      // The claim stays (a retry could make a second agent beside the half-made one) and ends with the interaction
      // (30 minutes at most); the owner sees the first failure.
      ctx.log.error({ err: cleanupError, uid }, 'oauth: cleaning up after a failed decision failed');
    }
    throw e;
  }
}

/**
 * D39: an app names itself at registration, and the owner reads that name on the consent page and as the agent's.
 * A name that could mislead the owner (bidi or zero-width characters, control characters, blank) is not
 * offered: the client id stands in for it.
 */
const offeredName = (clientName: string | undefined): string | null =>
  clientName && ownerTextProblem(clientName) === null && findControlCharacter(clientName) === null ? clientName.trim() : null;

export async function getInteraction(ctx: AppContext, oauth: OAuthServer, owner: Principal, uid: string, browser: BrowserCookies): Promise<InteractionView> {
  const found = await pending(oauth, uid, browser);
  const existing = await findOAuthAgentOfClient(ctx, owner.userId, found.client.clientId);
  return viewOf(oauth, uid, found, existing?.agent ?? null);
}

function viewOf(
  oauth: OAuthServer,
  uid: string,
  { interaction, client }: Awaited<ReturnType<typeof pending>>,
  agent: ApiKeyView | null,
): InteractionView {
  const asked = String(interaction.params.scope ?? '').split(' ').filter(Boolean);
  const meta = client.metadata();
  return {
    uid,
    client: {
      client_id: client.clientId,
      client_name: offeredName(client.clientName),
      client_uri: typeof meta.client_uri === 'string' ? meta.client_uri : null,
      logo_uri: typeof meta.logo_uri === 'string' ? meta.logo_uri : null,
    },
    redirect_uri: String(interaction.params.redirect_uri ?? ''),
    // No scope asked means every scope: the owner picks.
    requested_scopes: asked.length ? SCOPES.filter((s) => asked.includes(s)) : [...SCOPES],
    resource: oauth.resource,
    expires_at: new Date(interaction.exp * 1000).toISOString(),
    agent,
  };
}

const remaining = (exp: number) => Math.max(1, exp - Math.floor(Date.now() / 1000));

/**
 * D44: the owner approves. The app becomes an agent (an `oauth` key with the scopes, limits, allowlist and expiry
 * chosen here, D31); its grant on the MCP resource carries the chosen scopes, and the grant's account is that
 * key, so every token the app gets acts as it. Answers where the owner's browser goes next to finish. Decided once
 * (see decideOnce): two approvals at once make one agent. An app already connected as a live agent of this owner
 * updates that agent instead.
 */
export async function approveInteraction(
  ctx: AppContext,
  oauth: OAuthServer,
  owner: Principal,
  uid: string,
  browser: BrowserCookies,
  input: KeyControlsInput & { name?: string },
): Promise<{ redirect_to: string; agent: ApiKeyView }> {
  const found = await pending(oauth, uid, browser, true);
  const { interaction, client } = found;
  // An app the owner already connected, asking again (for more scopes: step-up), updates its agent: one agent, one
  // set of limits and usage, and its earlier tokens end once the new grant is in place.
  const existing = await findOAuthAgentOfClient(ctx, owner.userId, client.clientId);
  // From what was read once: reading it again could meet another tab's decision and answer 404 for a 409.
  const view = viewOf(oauth, uid, found, existing?.agent ?? null);
  const { name, ...controls } = input;
  const scopes = controls.scopes ?? view.requested_scopes;
  const offered = offeredName(client.clientName);
  const label = Array.from(name?.trim() || existing?.agent.name || offered || client.clientId).slice(0, 100).join('');
  const made: { agentId?: string; grantId?: string; updated?: KeyChange; grantSet?: boolean } = {};
  const undo = async () => {
    if (made.grantId) await revokeGrantRecords(ctx.store, made.grantId);
    // Recorded, as its making was: the activity log shows the agent came and went.
    if (made.agentId) await deleteApiKey(ctx, owner.userId, made.agentId, owner);
    // The agent keeps naming its earlier grant, so that the retry ends that grant's tokens once it succeeds.
    if (made.grantSet && existing?.grantId) await setOAuthGrant(ctx, existing.agent.id, existing.grantId);
    // An app connecting again had its agent updated first: put back what it was, as the failure (a 503) says
    // nothing was kept, while the earlier tokens still act as that agent. Not what the owner changed since (D31).
    // What it was is read under the update's own lock: an edit of the owner's just before it is not undone either.
    if (existing && made.updated) await putBackApiKey(ctx, owner.userId, existing.agent.id, made.updated, owner);
  };
  return decideOnce(
    ctx,
    uid,
    async () => {
      // Updated as the owner edits a key: what the consent sets changes, the rest (limits set since) is kept. The
      // agent is made or changed with its activity entry, naming it, in one transaction.
      const updated = existing ? await updateApiKeyFrom(ctx, owner.userId, existing.agent.id, { ...controls, scopes, name: label }, owner, 'oauth.approved') : null;
      const agent = updated
        ? updated.view
        : await ctx.store.transaction(async (tx) => {
            const { key: _secret, ...view } = await createApiKey(ctx, tx, owner.userId, label, { ...controls, scopes }, { clientId: client.clientId });
            await writeAudit(tx, ctx.clock, owner, { action: 'oauth.approved', subjectId: view.id });
            return view;
          });
      if (updated) made.updated = updated;
      else made.agentId = agent.id;
      const grant = new (oauth.provider().Grant)({ accountId: agent.id, clientId: client.clientId });
      if (agent.scopes.length > 0) grant.addResourceScope(oauth.resource, agent.scopes.join(' '));
      // What was asked and not given is recorded as refused, so the library does not ask for it again.
      const refused = view.requested_scopes.filter((s) => !agent.scopes.includes(s as never));
      if (refused.length > 0) grant.rejectResourceScope(oauth.resource, refused.join(' '));
      // The same names are also the server's own scopes (see `scopes` in oauth.provider.ts); they count only per resource.
      const asked = String(interaction.params.scope ?? '').split(' ').filter(Boolean);
      // An app that asked no permission of /mcp lets the owner pick (getInteraction): its tokens carry what was picked.
      // Left as asked, the library would grant nothing and answer the app access_denied, leaving an agent without tokens.
      if (!asked.some((s) => (SCOPES as readonly string[]).includes(s))) {
        asked.push(...agent.scopes);
        interaction.params.scope = asked.join(' ');
      }
      // `openid` is refused too (no ID token: an app learns nothing of the owner): left neither granted nor refused,
      // the library would ask for consent again on the way back, and that second consent would revoke this grant.
      if (asked.length > 0) grant.rejectOIDCScope(asked.filter((s) => s !== 'offline_access').join(' '));
      if (asked.includes('offline_access')) grant.addOIDCScope('offline_access');
      const grantId = await grant.save();
      made.grantId = grantId;
      await keepClient(ctx.store, client.clientId);
      made.grantSet = true; // before the write: one whose answer is lost may have happened
      await setOAuthGrant(ctx, agent.id, grantId);
      interaction.result = { login: { accountId: agent.id }, consent: { grantId } };
      await interaction.save(remaining(interaction.exp));
      // Last: until here a failure leaves the app its earlier tokens.
      if (existing?.grantId) await revokeGrantRecords(ctx.store, existing.grantId);
      return { redirect_to: interaction.returnTo, agent };
    },
    undo,
  );
}

/** The owner refuses: the app is told `access_denied` at its redirect URI. */
export async function denyInteraction(ctx: AppContext, oauth: OAuthServer, uid: string, browser: BrowserCookies): Promise<{ redirect_to: string }> {
  const { interaction } = await pending(oauth, uid, browser, true);
  return decideOnce(ctx, uid, async () => {
    interaction.result = { error: 'access_denied', error_description: 'The owner refused the authorization' };
    await interaction.save(remaining(interaction.exp));
    return { redirect_to: interaction.returnTo };
  });
}

/**
 * D44: an access token presented at `/mcp`: ours, unexpired, issued for the MCP resource, and its agent (key)
 * still live. Anything else is null (the caller answers 401).
 */
export async function authenticateAccessToken(ctx: AppContext, oauth: OAuthServer, token: string): Promise<Principal | 'expired' | null> {
  // Opaque tokens are 43 base64url characters; anything else (a REST JWT, garbage) is not looked up.
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const at = await oauth.provider().AccessToken.find(token);
  if (!at || at.isExpired) return null;
  const aud = Array.isArray(at.aud) ? at.aud : at.aud ? [at.aud] : [];
  if (!aud.includes(oauth.resource)) return null;
  // A token saved just after its grant was revoked (a code or refresh token used twice at once, oauth.adapter.ts)
  // outlives the revocation: its grant must still be there.
  if (!at.grantId || !(await oauth.provider().Grant.find(at.grantId))) return null;
  const key = await findActiveOAuthKey(ctx, at.accountId);
  if (!key || key === 'expired') return key;
  // D44: a token acts within its own scope (what the host asked for, or narrowed it to at a refresh) and its agent's
  // as they are now, whichever is narrower: the owner taking a scope away holds at once, and a token the host
  // narrowed (for a helper it trusts less) never does more than it says.
  const tokenScopes = new Set(String(at.scope ?? '').split(' '));
  const controls = { ...key.controls, scopes: key.controls.scopes.filter((s) => tokenScopes.has(s)) };
  return { userId: key.user_id, kind: 'api_key', keyId: key.id, keyName: key.name, controls, via: 'oauth' };
}

/** Revoking an app's agent ends its grant and every code and token under it at once. */
export async function revokeGrant(ctx: AppContext, grantId: string): Promise<void> {
  await revokeGrantRecords(ctx.store, grantId);
}
