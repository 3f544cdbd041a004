import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../api/client';
import { qk } from '../api/queries';
import { QrCode } from '../components/qr';
import { toast } from '../components/toast';
import { ConfirmDialog, CopyField, ErrorBox, Loading, Section, When } from '../components/ui';
import { formatCountdown } from '../lib/format';
import { useNow } from '../lib/hooks';
import { tOr, useI18n } from '../lib/i18n';

type WhatsAppLink = { code: string; text: string; link: string; expires_in: number };

/**
 * WhatsApp (D45): a code and a wa.me link (and its QR) that opens a chat with the business number with the code
 * typed in; the message links the number it came from. The number is shown masked, and so is what WhatsApp
 * said when it could not deliver (a number that stopped receiving, a refused template).
 */
export function WhatsAppSection() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [link, setLink] = useState<(WhatsAppLink & { at: number }) | null>(null);
  const [confirm, setConfirm] = useState(false);
  const now = useNow(1000);
  const channels = useQuery({
    queryKey: qk.channels,
    queryFn: () => unwrap(api.GET('/v1/approval-channels')),
    // What the messaging service said about a link changes outside the dashboard: read it afresh on every visit.
    staleTime: 0,
    // While a code is out, watch for the owner's message.
    refetchInterval: link ? 3_000 : false,
  });
  const wa = channels.data?.channels.find((c) => c.name === 'whatsapp');
  const left = link ? Math.min(link.expires_in, (link.at + link.expires_in * 1000 - now) / 1000) : 0;

  useEffect(() => {
    if (link && wa?.linked) {
      setLink(null);
      toast(t('wa.linkedToast'));
    }
  }, [link, wa, t]);

  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/approval-channels/whatsapp')),
    onSuccess: (l) => setLink({ ...l, at: Date.now() }),
  });
  const unlink = useMutation({
    mutationFn: () => unwrap(api.DELETE('/v1/approval-channels/whatsapp')),
    onSuccess: () => {
      setConfirm(false);
      toast(t('wa.unlinked'));
      void qc.invalidateQueries({ queryKey: qk.channels });
    },
    onError: () => setConfirm(false),
  });
  const linkButton = (
    <div className="actions">
      <button type="button" className="btn btn-primary" onClick={() => create.mutate()} disabled={create.isPending}>
        {t('wa.link')}
      </button>
    </div>
  );

  return (
    <Section title={t('wa.section')}>
      <div data-testid="whatsapp">
        {channels.isPending ? (
          <Loading />
        ) : channels.error ? (
          <ErrorBox error={channels.error} onRetry={() => channels.refetch()} />
        ) : !wa ? (
          <p className="notice notice-info">{t('wa.notEnabled')}</p>
        ) : link && left > 0 ? (
          <div className="tg-link">
            <QrCode text={link.link} label={t('wa.qr')} />
            <div>
              <p>{t('wa.linkIntro', { code: link.code, time: formatCountdown(left) })}</p>
              <p>
                <a className="btn btn-primary" href={link.link} target="_blank" rel="noopener noreferrer">
                  {t('wa.linkOpen')}
                </a>
              </p>
              <CopyField label={t('wa.code')} value={link.code} />
              <p className="muted" role="status">
                {t('wa.waiting')}
              </p>
            </div>
          </div>
        ) : wa.linked ? (
          <>
            {wa.state === 'active' ? (
              <p className="notice notice-ok" role="status">
                ✓ {t('wa.linked', { phone: wa.phone ?? '' })} {wa.linked_at && <When iso={wa.linked_at} />}
              </p>
            ) : (
              <div className="notice notice-error" role="status" data-testid="whatsapp-problem">
                <strong>{t('wa.linked', { phone: wa.phone ?? '' })}</strong>
                <p>{tOr(t, `wa.state.${wa.state}`, wa.state ?? '')}</p>
                {wa.problem && (
                  <p className="small">
                    {t('wa.problem', { code: wa.problem.code, message: wa.problem.message })} · <When iso={wa.problem.at} />
                  </p>
                )}
              </div>
            )}
            <div className="actions">
              {wa.state !== 'active' && (
                <button type="button" className="btn btn-secondary" onClick={() => create.mutate()} disabled={create.isPending}>
                  {t('wa.relink')}
                </button>
              )}
              <button type="button" className="btn btn-danger-outline" onClick={() => setConfirm(true)}>
                {t('wa.unlink')}
              </button>
            </div>
          </>
        ) : (
          <>
            <p className="muted">{t('wa.notLinked')}</p>
            {linkButton}
          </>
        )}
        {create.error && <ErrorBox error={create.error} />}
        {unlink.error && <ErrorBox error={unlink.error} />}
      </div>
      <ConfirmDialog
        open={confirm}
        title={t('wa.unlinkTitle')}
        confirmLabel={t('wa.unlink')}
        danger
        busy={unlink.isPending}
        onCancel={() => setConfirm(false)}
        onConfirm={() => unlink.mutate()}
      >
        <p>{t('wa.unlinkBody')}</p>
      </ConfirmDialog>
    </Section>
  );
}
