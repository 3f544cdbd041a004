import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import { qk } from '../api/queries';
import { SCOPES, type KeyControls, type OAuthInteraction, type Scope } from '../api/types';
import { KeyControlsFields, keyLimitsValid } from '../components/key-controls-fields';
import { OwnerOnly, ScreenHead } from '../components/screen';
import { ErrorBox, Field, Loading, Section } from '../components/ui';
import { useI18n } from '../lib/i18n';

/**
 * An app asks to connect to the MCP endpoint by OAuth: the owner sees which app and where its answer goes, shapes
 * the agent it becomes (the same controls as a key) and approves or refuses. The answer goes back to the app
 * through this browser, which started the authorization.
 */
export function ConnectScreen({ params }: { params: Record<string, string> }) {
  const { t } = useI18n();
  const uid = params.uid!;
  const request = useQuery({
    queryKey: ['oauth-interaction', uid],
    queryFn: () => unwrap(api.GET('/v1/oauth/interactions/{uid}', { params: { path: { uid } } })),
    retry: false,
    staleTime: Infinity,
  });
  const gone = request.error instanceof ApiError && request.error.code === 'NOT_FOUND';
  return (
    <>
      <ScreenHead title={t('connect.title')} intro={t('connect.intro')} />
      <OwnerOnly>
        {request.isPending ? (
          <Loading />
        ) : gone ? (
          <div className="notice" role="status">
            <p>{t('connect.gone')}</p>
          </div>
        ) : request.error ? (
          <ErrorBox error={request.error} onRetry={() => request.refetch()} />
        ) : (
          <ConsentForm uid={uid} view={request.data!} />
        )}
      </OwnerOnly>
    </>
  );
}

type View = OAuthInteraction;

function ConsentForm({ uid, view }: { uid: string; view: View }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const appName = view.client.client_name || view.client.client_id;
  // An app already connected is an agent the owner may have shaped since (limits, allowlist, expiry): the form starts
  // from it, since everything it sends is applied, and what the app asks for now is added to its permissions.
  const agent = view.agent;
  const asked = view.requested_scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));
  const [name, setName] = useState(agent?.name ?? appName.slice(0, 100));
  const [draft, setDraft] = useState<KeyControls>(
    agent
      ? {
          scopes: SCOPES.filter((s) => agent.scopes.includes(s) || asked.includes(s)),
          allowlist: agent.allowlist,
          per_tx_limit_ars: agent.per_tx_limit_ars,
          daily_limit_ars: agent.daily_limit_ars,
          monthly_limit_ars: agent.monthly_limit_ars,
          expires_at: agent.expires_at,
        }
      : { scopes: asked, allowlist: [], per_tx_limit_ars: 0, daily_limit_ars: 0, monthly_limit_ars: 0, expires_at: null },
  );
  const [dateOk, setDateOk] = useState(true);
  const limitsValid = keyLimitsValid(draft);
  // The answer reaches the app through this browser: leave the dashboard for the authorization server.
  const leave = (to: string) => {
    void qc.invalidateQueries({ queryKey: qk.keys });
    window.location.assign(to);
  };
  const approve = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/oauth/interactions/{uid}/approve', { params: { path: { uid } }, body: { name: name.trim() || appName.slice(0, 100), ...draft } })),
    onSuccess: (r) => leave(r.redirect_to),
  });
  const deny = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/oauth/interactions/{uid}/deny', { params: { path: { uid } } })),
    onSuccess: (r) => leave(r.redirect_to),
  });
  const busy = approve.isPending || deny.isPending || approve.isSuccess || deny.isSuccess;
  // Where the code goes: a web address by its host; any other scheme is an app on the owner's device, named by that
  // scheme, since its "host" is whatever the app wrote (com.attacker.app://claude.ai/ names no site at all).
  let redirectHost = view.redirect_uri;
  try {
    const u = new URL(view.redirect_uri);
    redirectHost = u.protocol === 'https:' || u.protocol === 'http:' ? u.host || view.redirect_uri : t('connect.appScheme', { scheme: u.protocol });
  } catch {
    // shown as given
  }

  return (
    <form
      className="consent"
      onSubmit={(e) => {
        e.preventDefault();
        if (limitsValid && dateOk) approve.mutate();
      }}
    >
      <Section title={t('connect.asks', { app: appName })}>
        <dl className="facts">
          <div>
            <dt>{t('connect.appId')}</dt>
            <dd className="mono small">{view.client.client_id}</dd>
          </div>
          <div>
            <dt>{t('connect.answerTo')}</dt>
            <dd className="mono small" data-testid="redirect-host">
              {redirectHost}
            </dd>
          </div>
        </dl>
        <p className="muted small">{t('connect.warning')}</p>
        {agent && (
          <div className="notice" role="status">
            <p>{t('connect.already', { name: agent.name })}</p>
          </div>
        )}
      </Section>
      <Section title={t('connect.shape')}>
        <Field label={t('agents.name')}>
          {({ id, describedBy }) => <input id={id} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} aria-describedby={describedBy} />}
        </Field>
        <KeyControlsFields
          draft={draft}
          onChange={setDraft}
          onDateValid={setDateOk}
          scopeNote={(s) => !view.requested_scopes.includes(s) && <span className="muted small"> ({t('connect.notAsked')})</span>}
        />
      </Section>
      {(approve.error || deny.error) && <ErrorBox error={approve.error ?? deny.error} />}
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={busy || !limitsValid || !dateOk}>
          {approve.isPending ? t('connect.approving') : t('connect.approve')}
        </button>
        <button type="button" className="btn btn-danger-outline" disabled={busy} onClick={() => deny.mutate()}>
          {t('connect.deny')}
        </button>
      </div>
    </form>
  );
}
