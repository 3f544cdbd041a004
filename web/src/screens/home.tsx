import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { whenNotLive } from '../api/live';
import { qk, refreshMoney, useBalance, useCvu, useFeatures, usePause, usePendingApprovals } from '../api/queries';
import type { PauseState, Payout } from '../api/types';
import { CancelPayout, waitsForResume } from '../components/cancel-payout';
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
    refetchInterval: whenNotLive(30_000),
  });
  const deposits = useQuery({ queryKey: qk.deposits, queryFn: () => unwrap(api.GET('/v1/deposits')), refetchInterval: whenNotLive(60_000) });
  // Money in, not money back: a failed payout's reversal (REVERSED) returns the owner's own money, it is no income.
  const credits = (deposits.data?.deposits ?? []).filter((d) => d.direction === 'credit' && d.status !== 'REVERSED').slice(0, 5);

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
  const { t, tn } = useI18n();
  const pending = usePendingApprovals();
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
            {payouts.length > 0 && <li className="waiting-count">{tn('home.pendingPayouts', payouts.length)}</li>}
            {proposals.length > 0 && <li className="waiting-count">{tn('home.pendingProposals', proposals.length)}</li>}
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

/**
 * D31/D36: one obvious switch that stops every payout at once. It never disappears: while its state cannot be
 * read (a rate limit, the network) it still offers to pause, which is always safe. After pausing it lists what was
 * already on its way to the bank (`in_flight`) and the approved payouts that wait for resume, each cancellable.
 */
function EmergencyStop() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const pause = usePause(true);
  const [inFlight, setInFlight] = useState<Payout[] | null>(null);
  const toggle = useMutation({
    mutationFn: (paused: boolean) => unwrap(paused ? api.POST('/v1/payouts/pause') : api.POST('/v1/payouts/resume')) as Promise<PauseAnswer>,
    onSuccess: (state) => {
      qc.setQueryData(qk.pause, state);
      setInFlight(state.paused ? (state.in_flight ?? []) : null);
      refreshMoney(qc);
      toast(state.paused ? t('pause.paused') : t('pause.resumed'));
    },
  });
  const known = pause.data as PauseAnswer | undefined;
  const paused = known?.paused === true;
  const recent = useQuery({
    queryKey: [...qk.payouts, 'waiting'],
    queryFn: () => unwrap(api.GET('/v1/withdraws', { params: { query: { limit: 50 } } })),
    enabled: paused,
  });
  const waiting = recent.data?.withdraws.filter(waitsForResume) ?? [];
  // The payouts the pause found on their way, each as it is now (sent, credited, failed), not as it was then.
  const shownInFlight = (inFlight ?? (paused ? (known?.in_flight ?? []) : [])).map((p) => recent.data?.withdraws.find((w) => w.id === p.id) ?? p);
  return (
    <section className={`card stop ${paused ? 'stop-on' : ''}`} aria-labelledby="stop-h" data-testid="emergency-stop">
      <div className="stop-row">
        <div>
          <h2 id="stop-h">{t('pause.title')}</h2>
          <p id="stop-desc">{!known ? (pause.isPending ? t('common.loading') : t('pause.unknown')) : paused ? t('pause.on') : t('pause.off')}</p>
          {paused && known?.paused_at && (
            <p className="muted">
              {t('pause.since')} <When iso={known.paused_at} />
            </p>
          )}
        </div>
        {known ? (
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
            {/* What pressing it does now. */}
            <span>{paused ? t('pause.switchResume') : t('pause.switchPause')}</span>
          </button>
        ) : (
          <button type="button" className="btn btn-danger" disabled={toggle.isPending} onClick={() => toggle.mutate(true)}>
            {t('pause.switchPause')}
          </button>
        )}
      </div>
      {pause.error && !known && <ErrorBox error={pause.error} onRetry={() => pause.refetch()} />}
      {toggle.error && <ErrorBox error={toggle.error} />}
      {paused && shownInFlight.length > 0 && (
        <div className="stop-list" data-testid="in-flight">
          <h3>{t('pause.inFlightTitle')}</h3>
          <p className="muted small">{t('pause.inFlightIntro')}</p>
          {/* Full payout rows (amount, account, date): "compact" lays a row out in one line, for the short lists. */}
          <ul className="rows">
            {shownInFlight.map((p) => (
              <PayoutRow key={p.id} p={p} />
            ))}
          </ul>
        </div>
      )}
      {paused && waiting.length > 0 && (
        <div className="stop-list" data-testid="waiting-for-resume">
          <h3>{t('pause.waitingTitle')}</h3>
          <p className="muted small">{t('pause.waitingIntro')}</p>
          <ul className="rows compact">
            {waiting.map((p) => (
              <li key={p.id} className="row row-action" data-payout-id={p.id}>
                <span className="row-main">
                  <Money amount={p.amount_ars} className="row-amount" />
                  <span className="row-sub mono account">{p.destination}</span>
                </span>
                <CancelPayout p={p} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

/** The pause answer with D36's `in_flight` (typed here until the generated schema has it). */
type PauseAnswer = PauseState & { in_flight?: Payout[] };
