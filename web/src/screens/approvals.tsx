import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { whenNotLive } from '../api/live';
import { qk, useFeatures, usePause, usePendingApprovals } from '../api/queries';
import type { ApprovalList } from '../api/types';
import { ApprovalCard } from '../components/approval-card';
import { OwnerOnly, ScreenHead } from '../components/screen';
import { ErrorBox, Loading, Section } from '../components/ui';
import { useI18n } from '../lib/i18n';
import { Link } from '../lib/router';

/** The inbox: pending first (polled every few seconds, so new requests appear by themselves), then decided. */
export function ApprovalsScreen() {
  const { t } = useI18n();
  const pending = usePendingApprovals();
  const recent = useQuery({
    queryKey: qk.approvalsRecent,
    queryFn: () => unwrap(api.GET('/v1/approvals', { params: { query: { limit: 20 } } })) as Promise<ApprovalList>,
    refetchInterval: whenNotLive(15_000),
  });
  const decided = (recent.data?.approvals ?? []).filter((a) => a.status !== 'pending');
  const paused = usePause(useFeatures().data?.pause === true).data?.paused === true;

  return (
    <>
      <ScreenHead title={t('approvals.title')} intro={t('approvals.intro')} />
      <OwnerOnly>
        {paused && (
          <div className="notice notice-warn" data-testid="paused-notice">
            <strong>{t('pause.paused')}</strong>
            <p>
              {t('pause.approvalsBlocked')} <Link to="/">{t('pause.goResume')}</Link>
            </p>
          </div>
        )}
        <Section title={t('approvals.pending')}>
          {pending.isPending ? (
            <Loading />
          ) : pending.error ? (
            <ErrorBox error={pending.error} onRetry={() => pending.refetch()} />
          ) : pending.data!.approvals.length === 0 ? (
            <p className="empty">{t('approvals.none')}</p>
          ) : (
            <div className="approval-list" aria-live="polite" aria-relevant="additions">
              {pending.data!.approvals.map((a) => (
                <ApprovalCard key={a.id} approval={a} fetchedAt={pending.dataUpdatedAt} />
              ))}
            </div>
          )}
        </Section>
        <Section title={t('approvals.history')}>
          {recent.isPending ? (
            <Loading />
          ) : recent.error ? (
            <ErrorBox error={recent.error} onRetry={() => recent.refetch()} />
          ) : decided.length === 0 ? (
            <p className="empty">{t('approvals.historyNone')}</p>
          ) : (
            <div className="approval-list">
              {decided.map((a) => (
                <ApprovalCard key={a.id} approval={a} fetchedAt={recent.dataUpdatedAt} />
              ))}
            </div>
          )}
        </Section>
      </OwnerOnly>
    </>
  );
}
