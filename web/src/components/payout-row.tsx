import type { Deposit, Payout } from '../api/types';
import { tOr, useI18n } from '../lib/i18n';
import { Link } from '../lib/router';
import { Money, StatusBadge, When } from './ui';

export function PayoutStatus({ status }: { status: string }) {
  const { t } = useI18n();
  return <StatusBadge status={status} label={tOr(t, `status.${status}`, status)} />;
}

/** A payout in a list: a link to its detail page. */
export function PayoutRow({ p }: { p: Payout }) {
  const { t } = useI18n();
  return (
    <li className="row" data-payout-id={p.id}>
      <Link to={`/payouts/${p.id}`} className="row-link">
        <span className="row-top">
          <Money amount={p.amount_ars} className="row-amount" />
          <PayoutStatus status={p.status} />
        </span>
        <span className="row-sub">
          <span className="mono">{p.destination}</span>
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
