import type { Deposit, Payout } from '../api/types';
import { formatAccount } from '../lib/format';
import { tOr, useI18n } from '../lib/i18n';
import { waitsForResume } from './cancel-payout';
import { Link } from '../lib/router';
import { Money, StatusBadge, When } from './ui';

/** The status in words; an approved payout held by the emergency stop says it waits for resume (D36). */
export function PayoutStatus({ status, waiting }: { status: string; waiting?: boolean }) {
  const { t } = useI18n();
  if (waiting) return <StatusBadge status="waiting" label={t('status.waiting_for_resume')} />;
  return <StatusBadge status={status} label={tOr(t, `status.${status}`, status)} />;
}

/** A CBU or CVU in its two blocks (8 + 14 digits), so it breaks between them and never over three lines. */
export function Account({ value }: { value: string }) {
  return <span className="mono account">{formatAccount(value)}</span>;
}

/** A payout in a list: a link to its detail page. */
export function PayoutRow({ p }: { p: Payout }) {
  const { t } = useI18n();
  return (
    <li className="row" data-payout-id={p.id}>
      <Link to={`/payouts/${p.id}`} className="row-link">
        <span className="row-top">
          <Money amount={p.amount_ars} className="row-amount" />
          <PayoutStatus status={p.status} waiting={waitsForResume(p)} />
        </span>
        <span className="row-sub">
          <Account value={p.destination} />
          {p.recipient_name && <span className="muted"> · {p.recipient_name}</span>}
        </span>
        <span className="row-sub muted">
          <When iso={p.created_at} /> · {p.api_key_name ? t('common.agent', { name: p.api_key_name }) : t('common.owner')}
        </span>
      </Link>
    </li>
  );
}

/** An incoming transfer (a `credit` leg) in a list. */
export function DepositRow({ d }: { d: Deposit }) {
  const { t } = useI18n();
  return (
    <li className="row" data-deposit-id={d.id}>
      <span className="row-link">
        <span className="row-top">
          <Money amount={d.amount} className="row-amount credit" />
          <span className="row-sub muted">
            <When iso={d.creationTime} />
          </span>
        </span>
        <span className="row-sub">{t('home.from', { name: d.fromName || d.from })}</span>
      </span>
    </li>
  );
}
