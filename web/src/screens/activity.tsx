import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { whenNotLive } from '../api/live';
import { qk } from '../api/queries';
import type { ActivityEntry } from '../api/types';
import { reasonText, viaText } from '../components/approval-card';
import { Account } from '../components/payout-row';
import { OwnerOnly, ScreenHead } from '../components/screen';
import { ErrorBox, Loading, Money, When } from '../components/ui';
import { tOr, useI18n, type T } from '../lib/i18n';
import { Link } from '../lib/router';

function actionText(t: T, e: ActivityEntry): string {
  if (e.action.startsWith('mcp.')) return t('action.mcp', { tool: e.action.slice(4) });
  return tOr(t, `action.${e.action}`, e.action);
}

/** The details worth a glance: amounts, destinations, reasons, the channel; links to the payout it is about. */
function Details({ e, keyNames }: { e: ActivityEntry; keyNames: Map<string, string> }) {
  const { t } = useI18n();
  const d = (e.data ?? {}) as {
    request?: { amount_ars?: number; destination?: string };
    reasons?: string[];
    via?: string;
    kind?: string;
    decision?: string;
    api_key_name?: string | null;
  };
  const parts: React.ReactNode[] = [];
  if (d.request?.amount_ars !== undefined) parts.push(<Money key="a" amount={d.request.amount_ars} />);
  if (d.request?.destination) {
    parts.push(
      <span key="d">
        → <Account value={d.request.destination} />
      </span>,
    );
  }
  // A decision names the agent that asked; a key's change names the key.
  if (e.action.startsWith('approval.')) parts.push(<span key="k">{t('act.askedBy', { who: d.api_key_name ? t('common.agent', { name: d.api_key_name }) : t('common.owner') })}</span>);
  if ((e.action.startsWith('api_key.') || e.action === 'oauth.approved') && e.subject_id) parts.push(<span key="k">{t('act.key', { name: keyNames.get(e.subject_id) ? `«${keyNames.get(e.subject_id)}»` : e.subject_id })}</span>);
  if (d.reasons?.length) parts.push(<span key="r">{d.reasons.map((r) => reasonText(t, r)).join('; ')}</span>);
  if (d.via) parts.push(<span key="v">{viaText(t, d.via)}</span>);
  if (e.subject_id?.startsWith('wd_')) {
    parts.push(
      <Link key="p" to={`/payouts/${e.subject_id}`}>
        {t('approvals.seePayout')}
      </Link>,
    );
  }
  return <>{parts.length ? parts.reduce<React.ReactNode[]>((acc, p, i) => (i ? [...acc, ' · ', p] : [p]), []) : '—'}</>;
}

export function ActivityScreen() {
  const { t } = useI18n();
  const q = useInfiniteQuery({
    queryKey: qk.activity,
    queryFn: ({ pageParam }) => unwrap(api.GET('/v1/activity', { params: { query: { limit: 50, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: whenNotLive(60_000),
  });
  const entries = q.data?.pages.flatMap((p) => p.entries) ?? [];
  const keys = useQuery({ queryKey: qk.keys, queryFn: () => unwrap(api.GET('/v1/api-keys')) });
  const keyNames = new Map((keys.data?.api_keys ?? []).map((k) => [k.id, k.name]));
  return (
    <>
      <ScreenHead title={t('activity.title')} intro={t('activity.intro')} />
      <OwnerOnly>
        <div className="card">
          {q.isPending ? (
            <Loading />
          ) : q.error ? (
            <ErrorBox error={q.error} onRetry={() => q.refetch()} />
          ) : entries.length === 0 ? (
            <p className="empty">{t('activity.none')}</p>
          ) : (
            <ol className="activity">
              {entries.map((e) => (
                <li key={e.id} className={`act act-${e.actor}`} data-action={e.action}>
                  <span className="act-when small muted">
                    <When iso={e.created_at} seconds />
                  </span>
                  <span className="act-who">
                    <span className={`badge badge-${e.actor === 'agent' ? 'agent' : 'owner'}`}>
                      {e.actor === 'agent' ? t('common.agent', { name: e.api_key_name ?? '?' }) : t('common.owner')}
                    </span>
                  </span>
                  <span className="act-what">{actionText(t, e)}</span>
                  <span className="act-details small">
                    <Details e={e} keyNames={keyNames} />
                  </span>
                </li>
              ))}
            </ol>
          )}
          {q.hasNextPage && (
            <div className="actions">
              <button type="button" className="btn btn-secondary" onClick={() => q.fetchNextPage()} disabled={q.isFetchingNextPage}>
                {q.isFetchingNextPage ? t('common.loading') : t('common.more')}
              </button>
            </div>
          )}
        </div>
      </OwnerOnly>
    </>
  );
}
