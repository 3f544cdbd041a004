import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { qk, refreshMoney } from '../api/queries';
import type { Approval } from '../api/types';
import { formatAccount, formatArs, formatCountdown } from '../lib/format';
import { useNow } from '../lib/hooks';
import { tOr, useI18n, type T } from '../lib/i18n';
import type { MessageKey } from '../lib/messages';
import { Link } from '../lib/router';
import { Account } from './payout-row';
import { toast } from './toast';
import { ConfirmDialog, ErrorBox, Money, StatusBadge, When } from './ui';

const THRESHOLD_FIELDS = ['per_tx_limit_ars', 'daily_limit_ars', 'monthly_limit_ars', 'require_approval_above_ars', 'whitelist_cbus'] as const;

export const reasonText = (t: T, r: string) => tOr(t, `reason.${r}`, r);
/** How a decision arrived: "desde el panel", "por Telegram". */
export const viaText = (t: T, via: string) => tOr(t, `timeline.via.${via}`, t('approvals.via', { via })).trim();

function valueText(t: T, field: string, v: unknown): React.ReactNode {
  if (v === undefined) return '—';
  // Destinations one to a line, CBUs and CVUs in their two blocks: never wider than a phone.
  if (Array.isArray(v)) return v.length ? v.map((d: string) => <span key={d} className="diff-item mono account">{formatAccount(d)}</span>) : t('limits.whitelistEmpty');
  // A non-breaking space keeps "$ 800.000,00" on one line in a narrow table.
  if (typeof v === 'number') return (v === 0 ? `${formatArs(0)} (${t('limits.zero')})` : formatArs(v)).replace('$ ', '$\u00a0');
  return String(v);
}

/** An agent's proposed threshold change as old → new, only the fields it touches. */
/**
 * A proposal's limits: pending, beside the ones in force (what approving changes now); decided, only what was
 * proposed, since the limits in force now are no longer what the owner decided against.
 */
export function ThresholdDiff({ change, decided = false }: { change: { current: Record<string, unknown>; proposed: Record<string, unknown> }; decided?: boolean }) {
  const { t } = useI18n();
  const fields = THRESHOLD_FIELDS.filter((f) => f in change.proposed);
  return (
    <table className="diff">
      <caption className="visually-hidden">{t('approvals.thresholdChange')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('diff.field')}</th>
          {!decided && <th scope="col">{t('diff.old')}</th>}
          <th scope="col">{t('diff.new')}</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((f) => {
          const same = !decided && JSON.stringify(change.current[f]) === JSON.stringify(change.proposed[f]);
          return (
            <tr key={f}>
              <th scope="row">{f === 'whitelist_cbus' ? t('limits.whitelist') : t(`limits.${f}` as MessageKey)}</th>
              {!decided && (
                <td data-label={t('diff.old')}>
                  <del className={same ? 'same' : undefined}>{valueText(t, f, change.current[f])}</del>
                </td>
              )}
              <td data-label={t('diff.new')}>
                <ins className={same ? 'same' : undefined}>
                  {valueText(t, f, change.proposed[f])}
                  {same && ` (${t('diff.unchanged')})`}
                </ins>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** One request for the owner: what, to whom, why, who asked, how long is left; approve or reject, confirmed. */
export function ApprovalCard({ approval: a, fetchedAt }: { approval: Approval; fetchedAt: number }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const now = useNow(1000);
  const [confirm, setConfirm] = useState<'approve' | 'reject' | null>(null);
  const deadline = fetchedAt + a.expires_in * 1000;
  const left = Math.min(a.expires_in, (deadline - now) / 1000);
  const status = a.status === 'pending' && left <= 0 ? 'expired' : a.status;
  const pending = status === 'pending';

  const decide = useMutation({
    mutationFn: (verdict: 'approve' | 'reject') =>
      unwrap(
        verdict === 'approve'
          ? api.POST('/v1/approvals/{id}/approve', { params: { path: { id: a.id } } })
          : api.POST('/v1/approvals/{id}/reject', { params: { path: { id: a.id } } }),
      ),
    onSuccess: (_res, verdict) => {
      setConfirm(null);
      toast(verdict === 'approve' ? t('approvals.approved') : t('approvals.rejected'));
      refreshMoney(qc);
      void qc.invalidateQueries({ queryKey: qk.thresholds });
    },
    onError: () => {
      setConfirm(null);
      refreshMoney(qc);
      void qc.invalidateQueries({ queryKey: qk.pause }); // a 409 PAYOUTS_PAUSED: show the stop wherever it is shown
    },
  });

  const who = a.api_key_name ? t('common.agent', { name: a.api_key_name }) : t('common.owner');
  const isPayout = a.kind === 'payout' && a.payout;
  const stale = pending && a.threshold_change?.limits_changed === true;
  const title = isPayout ? t('approvals.payoutOf', { amount: formatArs(a.payout!.amount_ars) }) : t('approvals.thresholdChange');
  const dialogTitle =
    confirm === 'approve'
      ? t(isPayout ? 'approvals.confirmApproveTitle' : 'approvals.confirmApproveChangeTitle')
      : t(isPayout ? 'approvals.confirmRejectTitle' : 'approvals.confirmRejectChangeTitle');

  return (
    <article className={`approval ${pending ? 'is-pending' : ''} is-${status}`} data-approval-id={a.id} data-status={status} aria-label={title}>
      <header className="approval-head">
        <h3>{title}</h3>
        {pending ? (
          <span className="timer" role="timer" aria-live="off">
            {t('approvals.expiresIn', { time: formatCountdown(left) })}
          </span>
        ) : (
          <StatusBadge status={status} label={tOr(t, `approvals.status.${status}`, status)} />
        )}
      </header>
      <dl className="facts">
        {isPayout && (
          <>
            <div>
              <dt>{t('approvals.to')}</dt>
              <dd>
                <Account value={a.payout!.destination} /> <span className="muted">({a.payout!.destination_kind})</span>
              </dd>
            </div>
            <div>
              <dt>{t('approvals.recipient')}</dt>
              <dd>{a.payout!.recipient_name ?? <span className="muted">{t('approvals.recipientUnknown')}</span>}</dd>
            </div>
            <div>
              <dt>{t('approvals.reasons')}</dt>
              <dd>
                <ul className="reasons">
                  {a.payout!.reasons.map((r) => (
                    <li key={r}>{reasonText(t, r)}</li>
                  ))}
                </ul>
              </dd>
            </div>
          </>
        )}
        <div>
          <dt>{t('approvals.askedBy')}</dt>
          <dd>{who}</dd>
        </div>
        {isPayout && a.payout!.note && (
          <div>
            <dt>{t('approvals.note')}</dt>
            <dd>{a.payout!.note}</dd>
          </div>
        )}
        {!pending && a.decided_at && (
          <div>
            <dt>{tOr(t, `approvals.status.${status}`, status)}</dt>
            <dd>
              <When iso={a.decided_at} /> {a.decided_via && <span className="muted">{viaText(t, a.decided_via)}</span>}
            </dd>
          </div>
        )}
      </dl>
      {a.threshold_change && <ThresholdDiff change={a.threshold_change} decided={!pending} />}
      {/* D13: the owner changed these limits after the proposal; approving it would be refused, so it is not offered. */}
      {stale && (
        <p className="notice" role="note">
          {t('approvals.limitsChanged')}
        </p>
      )}
      {decide.error && <ErrorBox error={decide.error} />}
      <div className="actions">
        {pending && (
          <>
            {!stale && (
              <button type="button" className="btn btn-primary" onClick={() => setConfirm('approve')} disabled={decide.isPending}>
                {t('approvals.approve')}
              </button>
            )}
            <button type="button" className="btn btn-danger-outline" onClick={() => setConfirm('reject')} disabled={decide.isPending}>
              {t('approvals.reject')}
            </button>
          </>
        )}
        {isPayout && (
          <Link className="btn btn-ghost" to={`/payouts/${a.payout!.id}`}>
            {t('approvals.seePayout')}
          </Link>
        )}
      </div>
      <ConfirmDialog
        open={confirm !== null}
        title={dialogTitle}
        confirmLabel={confirm === 'approve' ? t('approvals.confirmApprove') : t('approvals.confirmReject')}
        danger={confirm === 'reject'}
        busy={decide.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() => confirm && decide.mutate(confirm)}
      >
        {isPayout ? (
          <p>
            <Money amount={a.payout!.amount_ars} /> → <Account value={a.payout!.destination} />
            {a.payout!.recipient_name && <> ({a.payout!.recipient_name})</>}
          </p>
        ) : (
          a.threshold_change && <ThresholdDiff change={a.threshold_change} />
        )}
      </ConfirmDialog>
    </article>
  );
}
