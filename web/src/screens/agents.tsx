import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { qk } from '../api/queries';
import { SCOPES, type ApiKey, type KeyControls, type KeyPatch, type NewApiKey } from '../api/types';
import { KeyControlsFields, keyLimitsValid } from '../components/key-controls-fields';
import { OwnerOnly, ScreenHead } from '../components/screen';
import { SecretReveal } from '../components/secret';
import { toast } from '../components/toast';
import { ConfirmDialog, ErrorBox, Field, Loading, Section, When } from '../components/ui';
import { formatArs } from '../lib/format';
import { useSendOnce } from '../lib/hooks';
import { hasInvisibleCharacter } from '../lib/owner-text';
import { useI18n } from '../lib/i18n';

export function AgentsScreen() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const keys = useQuery({ queryKey: qk.keys, queryFn: () => unwrap(api.GET('/v1/api-keys')) });
  const [name, setName] = useState('');
  const [created, setCreated] = useState<NewApiKey | null>(null);
  const create = useMutation({
    mutationFn: (n: string) => unwrap(api.POST('/v1/api-keys', { body: { name: n } })),
    onSuccess: (k) => {
      setCreated(k);
      setName('');
      void qc.invalidateQueries({ queryKey: qk.keys });
    },
  });
  const sendCreate = useSendOnce(create);
  const invisible = hasInvisibleCharacter(name);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() && !invisible) sendCreate(name.trim());
  };

  return (
    <>
      <ScreenHead title={t('agents.title')} intro={t('agents.intro')} />
      <OwnerOnly>
        {created ? (
          <Section title={t('agents.createdTitle', { name: created.name })}>
            <SecretReveal secret={created.key} onDone={() => setCreated(null)} />
          </Section>
        ) : (
          <Section title={t('agents.create')}>
            <form className="inline-form" onSubmit={submit}>
              <Field label={t('agents.name')} hint={t('agents.nameHint')} error={invisible ? t('agents.nameInvisible') : null}>
                {({ id, describedBy, invalid }) => (
                  <input id={id} value={name} maxLength={100} required onChange={(e) => setName(e.target.value)} aria-describedby={describedBy} aria-invalid={invalid} />
                )}
              </Field>
              <button type="submit" className="btn btn-primary" disabled={create.isPending || !name.trim() || invisible}>
                {create.isPending ? t('agents.creating') : t('agents.create')}
              </button>
            </form>
            {create.error && <ErrorBox error={create.error} />}
          </Section>
        )}
        <Section title={t('agents.list')}>
          {keys.isPending ? (
            <Loading />
          ) : keys.error ? (
            <ErrorBox error={keys.error} onRetry={() => keys.refetch()} />
          ) : keys.data!.api_keys.length === 0 ? (
            <p className="empty">{t('agents.none')}</p>
          ) : (
            <ul className="key-list">
              {keys.data!.api_keys.map((k) => (
                <KeyItem key={k.id} k={k} />
              ))}
            </ul>
          )}
        </Section>
      </OwnerOnly>
    </>
  );
}

function KeyItem({ k }: { k: ApiKey }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [confirm, setConfirm] = useState(false);
  const revoke = useMutation({
    mutationFn: () => unwrap(api.DELETE('/v1/api-keys/{id}', { params: { path: { id: k.id } } })),
    onSuccess: () => {
      setConfirm(false);
      toast(t('agents.revoked'));
      void qc.invalidateQueries({ queryKey: qk.keys });
    },
    onError: () => setConfirm(false),
  });
  return (
    <li className="key" data-key-id={k.id}>
      <div className="key-head">
        <h3>
          {k.name} {k.kind === 'oauth' && <span className="badge badge-oauth">{t('agents.oauth')}</span>}
        </h3>
        <button type="button" className="btn btn-danger-outline btn-small" onClick={() => setConfirm(true)} aria-label={`${t('agents.revoke')} ${k.name}`}>
          {t('agents.revoke')}
        </button>
      </div>
      <dl className="facts inline">
        <div>
          <dt>{t('agents.created')}</dt>
          <dd>
            <When iso={k.created_at} />
          </dd>
        </div>
        <div>
          <dt>{t('agents.lastUsed')}</dt>
          <dd>{k.last_used_at ? <When iso={k.last_used_at} /> : t('agents.never')}</dd>
        </div>
        <div>
          <dt>{t('agents.expires')}</dt>
          <dd>{k.expires_at ? <When iso={k.expires_at} /> : t('agents.noExpiry')}</dd>
        </div>
      </dl>
      <KeyControlsEditor id={k.id} name={k.name} controls={k} />
      {revoke.error && <ErrorBox error={revoke.error} />}
      <ConfirmDialog
        open={confirm}
        title={t('agents.revokeTitle', { name: k.name })}
        confirmLabel={t('agents.revokeConfirm')}
        danger
        busy={revoke.isPending}
        onCancel={() => setConfirm(false)}
        onConfirm={() => revoke.mutate()}
      >
        <p>{t('agents.revokeBody')}</p>
      </ConfirmDialog>
    </li>
  );
}

/** D31 per-agent controls (PATCH /v1/api-keys/{id}): scopes, allowlist, the key's own limits, expiry. */
function KeyControlsEditor({ id, name, controls }: { id: string; name: string; controls: KeyControls }) {
  const { t, tn } = useI18n();
  const qc = useQueryClient();
  const [draft, setDraft] = useState<KeyControls>(() => ({
    scopes: controls.scopes,
    allowlist: controls.allowlist,
    per_tx_limit_ars: controls.per_tx_limit_ars,
    daily_limit_ars: controls.daily_limit_ars,
    monthly_limit_ars: controls.monthly_limit_ars,
    expires_at: controls.expires_at,
  }));
  const save = useMutation({
    mutationFn: (body: KeyPatch) => unwrap(api.PATCH('/v1/api-keys/{id}', { params: { path: { id } }, body })),
    onSuccess: () => {
      toast(t('common.saved'));
      void qc.invalidateQueries({ queryKey: qk.keys });
    },
  });
  const limitsValid = keyLimitsValid(draft);
  const [dateOk, setDateOk] = useState(true);
  // What is saved, in words: "6 de 7 permisos · Límite diario $ 10.000,00 · 1 destino permitido".
  const limits = (['per_tx_limit_ars', 'daily_limit_ars', 'monthly_limit_ars'] as const).filter((f) => controls[f] > 0).map((f) => `${t(`limits.${f}`)} ${formatArs(controls[f])}`);
  const summary = [
    tn('agents.scopeCount', controls.scopes.length, { total: SCOPES.length }),
    ...(limits.length ? limits : [t('agents.noKeyLimits')]),
    ...(controls.allowlist.length ? [tn('agents.allowlistCount', controls.allowlist.length)] : []),
  ].join(' · ');
  return (
    <details className="controls">
      <summary>
        {t('agents.edit')}
        <span className="visually-hidden"> {name}</span> <span className="muted small">({summary})</span>
      </summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!limitsValid) return;
          save.mutate({
            scopes: draft.scopes,
            allowlist: draft.allowlist,
            per_tx_limit_ars: draft.per_tx_limit_ars,
            daily_limit_ars: draft.daily_limit_ars,
            monthly_limit_ars: draft.monthly_limit_ars,
            expires_at: draft.expires_at,
          });
        }}
      >
        <KeyControlsFields draft={draft} onChange={setDraft} onDateValid={setDateOk} />
        {save.error && <ErrorBox error={save.error} />}
        <button type="submit" className="btn btn-primary" disabled={save.isPending || !limitsValid || !dateOk}>
          {save.isPending ? t('common.saving') : t('common.save')}
        </button>
      </form>
    </details>
  );
}
