import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { isLive } from '../api/live';
import { qk } from '../api/queries';
import { OwnerOnly, ScreenHead } from '../components/screen';
import { toast } from '../components/toast';
import { ConfirmDialog, ErrorBox, Field, Loading, Section, StatusBadge, When } from '../components/ui';
import { useSendOnce } from '../lib/hooks';
import { tOr, useI18n } from '../lib/i18n';

export function WebhookScreen() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const hook = useQuery({ queryKey: qk.webhook, queryFn: () => unwrap(api.GET('/v1/webhook')) });
  // New deliveries come with the events the live stream announces; one still on its way is followed closely.
  const deliveries = useQuery({
    queryKey: qk.deliveries,
    queryFn: () => unwrap(api.GET('/v1/webhook/deliveries')),
    refetchInterval: (q) => (q.state.data?.deliveries.some((d) => d.status === 'pending') ? 3_000 : isLive() ? false : 30_000),
  });
  const current = hook.data?.webhook ?? null;
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [active, setActive] = useState(true);
  const [confirmDelete, setConfirmDelete] = useState(false);
  useEffect(() => {
    if (current) {
      setUrl(current.url);
      setActive(current.active);
    }
  }, [current]);

  const save = useMutation({
    mutationFn: () => unwrap(api.PUT('/v1/webhook', { body: { url: url.trim(), ...(secret ? { secret } : {}), active } })),
    onSuccess: (res) => {
      qc.setQueryData(qk.webhook, res);
      setSecret('');
      toast(t('webhook.saved'));
    },
  });
  const test = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/webhook/test')),
    onSuccess: (d) => {
      toast(t('webhook.testSent', { status: tOr(t, `delivery.${d.status}`, d.status) }));
      void qc.invalidateQueries({ queryKey: qk.deliveries });
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/v1/webhook')),
    onSuccess: () => {
      setConfirmDelete(false);
      setUrl('');
      toast(t('webhook.deleted'));
      void qc.invalidateQueries({ queryKey: qk.webhook });
    },
    onError: () => setConfirmDelete(false),
  });
  const redeliver = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/v1/webhook/deliveries/{id}/redeliver', { params: { path: { id } } })),
    onSuccess: () => {
      toast(t('webhook.redelivered'));
      void qc.invalidateQueries({ queryKey: qk.deliveries });
    },
  });
  const sendTest = useSendOnce(test);
  const sendRedeliver = useSendOnce(redeliver);
  const secretShort = secret.length > 0 && secret.length < 16;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (secretShort || (!current && secret.length < 16)) return;
    save.mutate();
  };

  return (
    <>
      <ScreenHead title={t('webhook.title')} intro={t('webhook.intro')} />
      <OwnerOnly>
        <Section title={t('webhook.config')}>
          {hook.isPending ? (
            <Loading />
          ) : hook.error ? (
            <ErrorBox error={hook.error} onRetry={() => hook.refetch()} />
          ) : (
            <form onSubmit={submit}>
              {!current && <p className="muted">{t('webhook.none')}</p>}
              <Field label={t('webhook.url')}>
                {({ id }) => <input id={id} type="url" inputMode="url" required placeholder="https://example.com/hooks/wallet" value={url} onChange={(e) => setUrl(e.target.value)} />}
              </Field>
              <Field
                label={t('webhook.secret')}
                hint={current ? `${t('webhook.secretHint')} ${t('webhook.secretKeep')}` : t('webhook.secretHint')}
                error={secretShort ? t('error.SECRET_TOO_SHORT') : null}
              >
                {({ id, describedBy, invalid }) => (
                  <input
                    id={id}
                    type="password"
                    autoComplete="new-password"
                    required={!current}
                    minLength={16}
                    value={secret}
                    onChange={(e) => setSecret(e.target.value)}
                    aria-describedby={describedBy}
                    aria-invalid={invalid}
                  />
                )}
              </Field>
              <label className="check">
                <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} /> {t('webhook.active')}
              </label>
              {save.error && <ErrorBox error={save.error} />}
              {test.error && <ErrorBox error={test.error} />}
              {remove.error && <ErrorBox error={remove.error} />}
              <div className="actions">
                <button type="submit" className="btn btn-primary" disabled={save.isPending}>
                  {save.isPending ? t('common.saving') : t('webhook.save')}
                </button>
                {current && (
                  <>
                    <button type="button" className="btn btn-secondary" onClick={() => sendTest()} disabled={test.isPending}>
                      {t('webhook.test')}
                    </button>
                    <button type="button" className="btn btn-danger-outline" onClick={() => setConfirmDelete(true)}>
                      {t('webhook.delete')}
                    </button>
                  </>
                )}
              </div>
            </form>
          )}
        </Section>
        <Section title={t('webhook.deliveries')}>
          {deliveries.isPending ? (
            <Loading />
          ) : deliveries.error ? (
            <ErrorBox error={deliveries.error} onRetry={() => deliveries.refetch()} />
          ) : deliveries.data!.deliveries.length === 0 ? (
            <p className="empty">{t('webhook.deliveriesNone')}</p>
          ) : (
            <div className="table-wrap">
              <table className="table" data-testid="deliveries">
                <thead>
                  <tr>
                    <th scope="col">{t('webhook.event')}</th>
                    <th scope="col">{t('webhook.status')}</th>
                    <th scope="col">{t('webhook.attempts')}</th>
                    <th scope="col">{t('webhook.response')}</th>
                    <th scope="col">{t('webhook.when')}</th>
                    <th scope="col">
                      <span className="visually-hidden">{t('webhook.redeliver')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {deliveries.data!.deliveries.map((d) => (
                    <tr key={d.id} data-delivery-id={d.id} data-event={d.event_type}>
                      <td className="mono cell-event">{d.event_type}</td>
                      <td className="cell-status">
                        <StatusBadge status={d.status} label={tOr(t, `delivery.${d.status}`, d.status)} />
                      </td>
                      <td className="cell-attempts" data-label={t('webhook.attempts')}>
                        {d.attempt_count}
                      </td>
                      <td className="cell-response" data-label={t('webhook.response')}>
                        {d.last_response_status ?? d.last_error ?? '—'}
                      </td>
                      <td className="cell-when">
                        <When iso={d.last_attempt_at ?? d.created_at} seconds />
                      </td>
                      <td className="cell-action">
                        <button
                          type="button"
                          className="btn btn-small btn-secondary"
                          onClick={() => sendRedeliver(d.id)}
                          disabled={redeliver.isPending}
                          aria-label={`${t('webhook.redeliver')} ${d.event_type}`}
                        >
                          {t('webhook.redeliver')}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {redeliver.error && <ErrorBox error={redeliver.error} />}
        </Section>
        <ConfirmDialog
          open={confirmDelete}
          title={t('webhook.deleteTitle')}
          confirmLabel={t('webhook.delete')}
          danger
          busy={remove.isPending}
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() => remove.mutate()}
        >
          <p>{t('webhook.deleteBody')}</p>
        </ConfirmDialog>
      </OwnerOnly>
    </>
  );
}
