import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { api, unwrap } from '../api/client';
import { whenNotLive } from '../api/live';
import { qk } from '../api/queries';
import { PAYOUT_STATUSES } from '../api/types';
import { PayoutRow } from '../components/payout-row';
import { ScreenHead } from '../components/screen';
import { ErrorBox, Loading } from '../components/ui';
import { tOr, useI18n } from '../lib/i18n';
import { navigate, useLocation } from '../lib/router';

const PAGE = 50;
const WANT = 20;
/** Pages fetched in a row to fill a filtered view; the rest comes with "Load more". */
const AUTO_PAGES = 6;

/**
 * Payouts, newest first, paged with the API's cursor. The API has no status filter, so the filter applies to the
 * pages loaded; when it leaves fewer than a screenful, the next pages are fetched by themselves (a few at most).
 */
export function PayoutsScreen() {
  const { t, tn } = useI18n();
  const { search } = useLocation();
  const status = search.get('status') ?? '';
  const selectId = useId();
  const q = useInfiniteQuery({
    queryKey: [...qk.payouts, 'list'],
    queryFn: ({ pageParam }) => unwrap(api.GET('/v1/withdraws', { params: { query: { limit: PAGE, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: whenNotLive(60_000),
  });
  const all = q.data?.pages.flatMap((p) => p.withdraws) ?? [];
  const shown = status ? all.filter((p) => p.status === status) : all;
  const pages = q.data?.pages.length ?? 0;

  useEffect(() => {
    if (status && shown.length < WANT && q.hasNextPage && !q.isFetchingNextPage && pages < AUTO_PAGES) void q.fetchNextPage();
  }, [status, shown.length, q.hasNextPage, q.isFetchingNextPage, pages, q]);

  return (
    <>
      <ScreenHead title={t('payouts.title')} />
      <div className="card">
        <div className="filters">
          <label htmlFor={selectId}>{t('payouts.filter')}</label>
          <select id={selectId} value={status} onChange={(e) => navigate(e.target.value ? `/payouts?status=${e.target.value}` : '/payouts', { replace: true })}>
            <option value="">{t('payouts.filterAll')}</option>
            {PAYOUT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {tOr(t, `status.${s}`, s)}
              </option>
            ))}
          </select>
        </div>
        {q.isPending ? (
          <Loading />
        ) : q.error ? (
          <ErrorBox error={q.error} onRetry={() => q.refetch()} />
        ) : shown.length === 0 && !q.hasNextPage ? (
          <p className="empty">{t('payouts.none')}</p>
        ) : (
          <>
            <p className="muted small" role="status">
              {tn('payouts.loaded', shown.length)}
            </p>
            <ul className="rows">
              {shown.map((p) => (
                <PayoutRow key={p.id} p={p} />
              ))}
            </ul>
          </>
        )}
        {q.hasNextPage && (
          <div className="actions">
            <button type="button" className="btn btn-secondary" onClick={() => q.fetchNextPage()} disabled={q.isFetchingNextPage}>
              {q.isFetchingNextPage ? t('common.loading') : t('common.more')}
            </button>
          </div>
        )}
      </div>
    </>
  );
}
