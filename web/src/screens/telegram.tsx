import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../api/client';
import { qk } from '../api/queries';
import type { TelegramLink } from '../api/types';
import { QrCode } from '../components/qr';
import { toast } from '../components/toast';
import { ConfirmDialog, CopyField, ErrorBox, Loading, Section, When } from '../components/ui';
import { formatCountdown } from '../lib/format';
import { useNow } from '../lib/hooks';
import { tOr, useI18n } from '../lib/i18n';

/**
 * Telegram: a deep link (and its QR) that opens the bot; pressing Start links the chat (D23). A chat Telegram
 * refuses (the bot was blocked) is shown with what Telegram said.
 */
export function TelegramSection() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [link, setLink] = useState<(TelegramLink & { at: number }) | null>(null);
  const [confirm, setConfirm] = useState(false);
  const now = useNow(1000);
  const channels = useQuery({
    queryKey: qk.channels,
    queryFn: () => unwrap(api.GET('/v1/approval-channels')),
    // What the messaging service said about a link changes outside the dashboard: read it afresh on every visit.
    staleTime: 0,
    // While a link code is out, watch for the owner pressing Start in the bot.
    refetchInterval: link ? 3_000 : false,
  });
  const tg = channels.data?.channels.find((c) => c.name === 'telegram');
  const left = link ? Math.min(link.expires_in, (link.at + link.expires_in * 1000 - now) / 1000) : 0;

  useEffect(() => {
    if (link && tg?.linked) {
      setLink(null);
      toast(t('tg.linked', { user: tg.username ? ` (@${tg.username})` : '' }));
    }
  }, [link, tg, t]);

  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/approval-channels/telegram')),
    onSuccess: (l) => setLink({ ...l, at: Date.now() }),
  });
  const unlink = useMutation({
    mutationFn: () => unwrap(api.DELETE('/v1/approval-channels/telegram')),
    onSuccess: () => {
      setConfirm(false);
      toast(t('tg.unlinked'));
      void qc.invalidateQueries({ queryKey: qk.channels });
    },
    onError: () => setConfirm(false),
  });

  return (
    <>
      <Section title={t('tg.title')}>
        <p className="muted">{t('tg.intro')}</p>
        {channels.isPending ? (
          <Loading />
        ) : channels.error ? (
          <ErrorBox error={channels.error} onRetry={() => channels.refetch()} />
        ) : !tg ? (
          <p className="notice notice-info">{t('tg.notEnabled')}</p>
        ) : tg.linked ? (
          <>
            {tg.state === 'active' ? (
              <p className="notice notice-ok" role="status">
                ✓ {t('tg.linked', { user: tg.username ? ` (@${tg.username})` : '' })} {tg.linked_at && <When iso={tg.linked_at} />}
              </p>
            ) : (
              <div className="notice notice-error" role="status" data-testid="telegram-problem">
                <strong>{t('tg.linked', { user: tg.username ? ` (@${tg.username})` : '' })}</strong>
                <p>{tOr(t, `tg.state.${tg.state}`, tg.state ?? '')}</p>
                {tg.problem && (
                  <p className="small">
                    {t('tg.problem', { code: tg.problem.code, message: tg.problem.message })} · <When iso={tg.problem.at} />
                  </p>
                )}
              </div>
            )}
            <div className="actions">
              <button type="button" className="btn btn-danger-outline" onClick={() => setConfirm(true)}>
                {t('tg.unlink')}
              </button>
            </div>
          </>
        ) : link && left > 0 ? (
          <div className="tg-link">
            <QrCode text={link.link} label={t('tg.qr')} />
            <div>
              <p>{t('tg.linkIntro', { time: formatCountdown(left) })}</p>
              <p>
                <a className="btn btn-primary" href={link.link} target="_blank" rel="noopener noreferrer">
                  {t('tg.linkOpen')}
                </a>
              </p>
              <CopyField label="Link" value={link.link} />
              <p className="muted" role="status">
                {t('tg.waiting')}
              </p>
            </div>
          </div>
        ) : (
          <>
            <p className="muted">{t('tg.notLinked')}</p>
            <div className="actions">
              <button type="button" className="btn btn-primary" onClick={() => create.mutate()} disabled={create.isPending}>
                {t('tg.link')}
              </button>
            </div>
          </>
        )}
        {create.error && <ErrorBox error={create.error} />}
        {unlink.error && <ErrorBox error={unlink.error} />}
      </Section>
      <ConfirmDialog
        open={confirm}
        title={t('tg.unlinkTitle')}
        confirmLabel={t('tg.unlink')}
        danger
        busy={unlink.isPending}
        onCancel={() => setConfirm(false)}
        onConfirm={() => unlink.mutate()}
      >
        <p>{t('tg.unlinkBody')}</p>
      </ConfirmDialog>
    </>
  );
}
