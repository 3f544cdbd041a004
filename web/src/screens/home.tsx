import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { qk, refreshMoney, useBalance, useCvu, useFeatures, usePause, usePendingApprovals } from '../api/queries';
import { DepositRow, PayoutRow } from '../components/payout-row';
import { ScreenHead } from '../components/screen';
import { toast } from '../components/toast';
import { CopyField, ErrorBox, Loading, Money, Section, When } from '../components/ui';
import { formatArs, formatCountdown } from '../lib/format';
import { useNow } from '../lib/hooks';
import { useI18n } from '../lib/i18n';
import { Link } from '../lib/router';

export function HomeScreen() {
  const { t } = useI18n();
  const balance = useBalance();
  const cvu = useCvu();
  const features = useFeatures().data;
  const payouts = useQuery({
    queryKey: [...qk.payouts, 'recent'],
    queryFn: () => unwrap(api.GET('/v1/withdraws', { params: { query: { limit: 5 } } })),
    refetchInterval: 30_000,
  });
  const deposits = useQuery({ queryKey: qk.deposits, queryFn: () => unwrap(api.GET('/v1/deposits')), refetchInterval: 60_000 });
  const credits = (deposits.data?.deposits ?? []).filter((d) => d.direction === 'credit').slice(0, 5);

  return (
    <>
      <ScreenHead title={t('home.title')} />
      {features?.pause && <EmergencyStop />}
      <div className="grid-2">
        <section className="card balance-card" aria-labelledby="balance-h">
          <h2 id="balance-h" className="label">
            {t('wallet.balance')}
          </h2>
          {balance.isPending ? (
            <Loading />
          ) : balance.error ? (
            <ErrorBox error={balance.error} onRetry={() => balance.refetch()} />
          ) : (
            <p className="balance" data-testid="balance">
              <Money amount={balance.data!.available} />
            </p>
          )}
          {cvu.data && (
            <div className="cvu-block">
              <CopyField label={t('wallet.cvu')} value={cvu.data.cvu} />
              {cvu.data.alias && <CopyField label={t('wallet.alias')} value={cvu.data.alias} />}
            </div>
          )}
        </section>
        <Waiting />
      </div>
      <div className="grid-2">
        <Section title={t('home.recentPayouts')} actions={<Link to="/payouts">{t('common.seeAll')}</Link>}>
          {payouts.isPending ? (
            <Loading />
          ) : payouts.error ? (
            <ErrorBox error={payouts.error} onRetry={() => payouts.refetch()} />
          ) : payouts.data!.withdraws.length === 0 ? (
            <p className="empty">{t('home.noPayouts')}</p>
          ) : (
            <ul className="rows">
              {payouts.data!.withdraws.map((p) => (
                <PayoutRow key={p.id} p={p} />
              ))}
            </ul>
          )}
        </Section>
        <Section title={t('home.recentDeposits')}>
          {deposits.isPending ? (
            <Loading />
          ) : deposits.error ? (
            <ErrorBox error={deposits.error} onRetry={() => deposits.refetch()} />
          ) : credits.length === 0 ? (
            <p className="empty">{t('home.noDeposits')}</p>
          ) : (
            <ul className="rows">
              {credits.map((d) => (
                <DepositRow key={d.id} d={d} />
              ))}
            </ul>
          )}
        </Section>
      </div>
    </>
  );
}

/** What waits for the owner: pending payouts and agents' proposals, with the time left on each. */
function Waiting() {
  const { t } = useI18n();
  const pending = usePendingApprovals(true);
  const now = useNow(1000);
  const list = pending.data?.approvals ?? [];
  const payouts = list.filter((a) => a.kind === 'payout');
  const proposals = list.filter((a) => a.kind === 'threshold_change');
  return (
    <Section title={t('home.waiting')}>
      {pending.isPending ? (
        <Loading />
      ) : pending.error ? (
        <ErrorBox error={pending.error} />
      ) : list.length === 0 ? (
        <p className="empty">{t('home.waitingNone')}</p>
      ) : (
        <>
          <ul className="waiting">
            {payouts.length > 0 && <li className="waiting-count">{t('home.pendingPayouts', { n: payouts.length })}</li>}
            {proposals.length > 0 && <li className="waiting-count">{t('home.pendingProposals', { n: proposals.length })}</li>}
          </ul>
          <ul className="rows compact">
            {list.slice(0, 4).map((a) => {
              const left = Math.min(a.expires_in, (pending.dataUpdatedAt + a.expires_in * 1000 - now) / 1000);
              return (
                <li key={a.id} className="row">
                  <Link to="/approvals" className="row-link">
                    <span className="row-main">
                      <span className="row-amount">{a.payout ? formatArs(a.payout.amount_ars) : t('approvals.thresholdChange')}</span>
                      <span className="row-sub">{a.api_key_name ? t('common.agent', { name: a.api_key_name }) : t('common.owner')}</span>
                    </span>
                    <span className="row-side timer">
                      {left > 0 ? t('approvals.expiresIn', { time: formatCountdown(left) }) : t('approvals.expired')}
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
          <p>
            <Link to="/approvals" className="btn btn-primary">
              {t('home.goApprovals')}
            </Link>
          </p>
        </>
      )}
    </Section>
  );
}

/** D31: one obvious switch that stops every payout at once (shown only when the service offers it). */
function EmergencyStop() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const pause = usePause(true);
  const toggle = useMutation({
    mutationFn: (paused: boolean) => unwrap(paused ? api.POST('/v1/payouts/pause') : api.POST('/v1/payouts/resume')),
    onSuccess: (state) => {
      qc.setQueryData(qk.pause, state);
      refreshMoney(qc);
      toast(state.paused ? t('pause.paused') : t('pause.resumed'));
    },
  });
  if (pause.isPending || pause.error) return null;
  const paused = pause.data!.paused;
  return (
    <section className={`card stop ${paused ? 'stop-on' : ''}`} aria-labelledby="stop-h">
      <div className="stop-row">
        <div>
          <h2 id="stop-h">{t('pause.title')}</h2>
          <p id="stop-desc">{paused ? t('pause.on') : t('pause.off')}</p>
          {paused && pause.data!.paused_at && (
            <p className="muted">
              {t('pause.since')} <When iso={pause.data!.paused_at} />
            </p>
          )}
        </div>
        <button
          type="button"
          role="switch"
          aria-checked={paused}
          aria-describedby="stop-desc"
          className="switch"
          disabled={toggle.isPending}
          onClick={() => toggle.mutate(!paused)}
        >
          <span className="switch-track" aria-hidden="true">
            <span className="switch-thumb" />
          </span>
          <span>{t('pause.switch')}</span>
        </button>
      </div>
      {toggle.error && <ErrorBox error={toggle.error} />}
    </section>
  );
}
