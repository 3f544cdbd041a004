import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { api, rawCall, unwrap } from '../api/client';
import { isLive } from '../api/live';
import { qk } from '../api/queries';
import { isFinal, type Payout, type Receipt } from '../api/types';
import { reasonText } from '../components/approval-card';
import { CancelPayout, waitsForResume } from '../components/cancel-payout';
import { Account, PayoutStatus } from '../components/payout-row';
import { ScreenHead } from '../components/screen';
import { ErrorBox, Loading, Money, Section, When } from '../components/ui';
import { formatAccount, formatTime, type Lang } from '../lib/format';
import { tOr, useI18n, type T } from '../lib/i18n';
import { downloadReceiptPdf, openReceiptHtml } from '../lib/receipt';
import { Link } from '../lib/router';

interface Step {
  key: string;
  at: string | null;
  text: string;
  state: 'done' | 'current' | 'bad';
  extra?: ReactNode;
}

/** Failure reasons in plain words: the receipt's Spanish sentence, or ours per code (English, or codes it lacks). */
export function failureText(t: T, lang: Lang, code: string | null, receiptText: string | null): string | null {
  if (!code) return null;
  if (lang === 'es' && receiptText) return receiptText;
  return code
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)
    .map((c) => tOr(t, `failure.${c}`, tOr(t, `reason.${c}`, c)))
    .join(' ');
}

const viaText = (t: T, via: string | null | undefined) => (via ? tOr(t, `timeline.via.${via}`, ` (${via})`) : '');

/** The state timeline, from the attempt record and the receipt's timestamps (there is no events endpoint). */
export function timelineOf(t: T, lang: Lang, p: Payout, r: Receipt | undefined): Step[] {
  const steps: Step[] = [];
  const who = p.api_key_name ? t('common.agent', { name: p.api_key_name }) : t('common.owner');
  steps.push({ key: 'requested', at: p.created_at, text: t('timeline.requestedBy', { who }), state: 'done' });
  const approval = r?.approval ?? null;
  if (p.decision === 'require_approval') {
    if (p.status === 'pending_approval') {
      const text = approval ? t('timeline.waiting', { time: formatTime(approval.expires_at) }) : t('status.pending_approval');
      steps.push({ key: 'waiting', at: null, text, state: 'current' });
    } else if (approval?.status === 'approved' || r?.approved_at) {
      steps.push({ key: 'approved', at: r?.approved_at ?? approval?.decided_at ?? null, text: t('timeline.approvedOwner', { via: viaText(t, approval?.decided_via) }), state: 'done' });
    } else if (approval?.status === 'rejected' || p.status === 'rejected') {
      steps.push({ key: 'rejected', at: approval?.decided_at ?? p.resolved_at, text: t('timeline.rejected', { via: viaText(t, approval?.decided_via) }), state: 'bad' });
    } else if (approval?.status === 'expired' || p.status === 'expired') {
      steps.push({ key: 'expired', at: p.resolved_at ?? approval?.expires_at ?? null, text: t('timeline.expired'), state: 'bad' });
    }
  } else if (r?.approved_at) {
    steps.push({ key: 'approved', at: r.approved_at, text: t('timeline.approvedPolicy'), state: 'done' });
  }
  if (r?.submitted_at) steps.push({ key: 'submitted', at: r.submitted_at, text: t('timeline.submitted'), state: 'done' });
  if (p.status === 'approved' || (p.status === 'submitted' && !r?.submitted_at)) {
    steps.push({ key: 'sending', at: null, text: tOr(t, `status.${p.status}`, p.status), state: 'current' });
  }
  if (p.status === 'submitted') steps.push({ key: 'confirming', at: null, text: t('status.submitted'), state: 'current' });
  if (p.status === 'confirmed') steps.push({ key: 'confirmed', at: p.resolved_at, text: t('timeline.confirmed'), state: 'done' });
  if (p.status === 'failed') {
    steps.push({ key: 'failed', at: p.resolved_at, text: t('timeline.failed'), state: 'bad', extra: failureText(t, lang, p.failure_reason, r?.failure_reason_text ?? null) });
  }
  // "Sent, waiting for the bank" appears once: drop the duplicate "submitted" current step.
  return steps.filter((s, i) => !(s.key === 'confirming' && steps[i - 1]?.key === 'submitted'));
}

export function PayoutDetailScreen({ params }: { params: Record<string, string> }) {
  const { t, lang } = useI18n();
  const id = params.id!;
  const [receiptError, setReceiptError] = useState<unknown>(null);
  const [busy, setBusy] = useState<'html' | 'pdf' | null>(null);
  const payout = useQuery({
    queryKey: qk.payout(id),
    queryFn: () => unwrap(api.GET('/v1/withdraws/{id}', { params: { path: { id } } })),
    // Until it settles, follow it (the sandbox bank confirms within seconds).
    // The live stream covers the newest payouts; an older one still moving is also asked now and then.
    refetchInterval: (q) => (q.state.data && isFinal(q.state.data.status) ? false : isLive() ? 15_000 : 3_000),
  });
  const p = payout.data;
  const receipt = useQuery({
    queryKey: [...qk.receipt(id), p?.updated_at],
    queryFn: () => rawCall<Receipt>('GET', `/v1/withdraws/${encodeURIComponent(id)}/receipt`),
    enabled: !!p,
    placeholderData: (prev) => prev,
  });
  const r = receipt.data;

  const run = async (kind: 'html' | 'pdf') => {
    setReceiptError(null);
    setBusy(kind);
    // Opened now, inside the click, so the browser does not take it for a pop-up.
    const target = kind === 'html' ? window.open('', '_blank') : null;
    try {
      if (kind === 'pdf') await downloadReceiptPdf(id);
      else await openReceiptHtml(id, target);
    } catch (e) {
      target?.close();
      setReceiptError(e);
    } finally {
      setBusy(null);
    }
  };

  if (payout.isPending) return <Loading />;
  if (payout.error) {
    return (
      <>
        <ScreenHead title={t('payouts.detail')} />
        <ErrorBox error={payout.error} onRetry={() => payout.refetch()} />
        <Link to="/payouts">{t('common.back')}</Link>
      </>
    );
  }
  const steps = timelineOf(t, lang, p!, r);
  const failure = failureText(t, lang, p!.failure_reason, r?.failure_reason_text ?? null);

  return (
    <>
      <ScreenHead
        title={t('payouts.detail')}
        intro={
          <Link to="/payouts">
            ← {t('common.back')}
          </Link>
        }
      />
      <div className="grid-2">
        <section className="card" aria-labelledby="pd-amount">
          <p className="label" id="pd-amount-label">
            {t('payouts.amount')}
          </p>
          <h2 id="pd-amount" className="balance">
            <Money amount={p!.amount_ars} />
          </h2>
          <p data-testid="payout-status">
            <PayoutStatus status={p!.status} waiting={waitsForResume(p!)} />
          </p>
          {waitsForResume(p!) && (
            <div className="notice notice-warn">
              <p>{t('pause.waitingIntro')}</p>
              <CancelPayout p={p!} />
            </div>
          )}
          {failure && (
            <div className="notice notice-error" role="status">
              <strong>{t('payouts.failure')}</strong>
              <p>{failure}</p>
            </div>
          )}
          <dl className="facts">
            <Fact label={t('payouts.destination')}>
              <Account value={p!.destination} /> <span className="muted">({p!.destination_kind})</span>
              {r?.destination.account && r.destination.account !== p!.destination && (
                <div className="mono muted small">{formatAccount(r.destination.account)}</div>
              )}
            </Fact>
            <Fact label={t('payouts.recipient')}>{p!.recipient_name ?? '—'}</Fact>
            {r?.destination.institution && <Fact label={t('payouts.bank')}>{r.destination.institution}</Fact>}
            <Fact label={t('payouts.agent')}>{p!.api_key_name ? t('common.agent', { name: p!.api_key_name }) : t('common.owner')}</Fact>
            <Fact label={t('payouts.decision')}>
              {p!.decision_reasons.length > 0 ? p!.decision_reasons.map((x) => reasonText(t, x)).join('; ') : t('timeline.approvedPolicy')}
            </Fact>
            {p!.note && <Fact label={t('payouts.note')}>{p!.note}</Fact>}
            {r?.operation_id && (
              <Fact label={t('payouts.operation')}>
                <span className="mono">{r.operation_id}</span>
              </Fact>
            )}
            {p!.coelsa_id && (
              <Fact label={t('payouts.coelsa')}>
                <span className="mono" data-testid="coelsa-id">{p!.coelsa_id}</span>
              </Fact>
            )}
            <Fact label={t('payouts.id')}>
              <span className="mono small">{p!.id}</span>
            </Fact>
            <Fact label={t('payouts.idempotency')}>
              <span className="mono small">{p!.idempotency_key}</span>
            </Fact>
          </dl>
        </section>
        <div>
          <Section title={t('payouts.timeline')}>
            <ol className="timeline" data-testid="timeline">
              {steps.map((s) => (
                <li key={s.key} className={`step step-${s.state}`} data-step={s.key}>
                  <span className="step-dot" aria-hidden="true" />
                  <span className="step-text">
                    {s.text}
                    {s.state === 'current' && <span className="visually-hidden"> …</span>}
                  </span>
                  {s.at && (
                    <span className="step-time">
                      <When iso={s.at} seconds />
                    </span>
                  )}
                  {s.extra && <span className="step-extra">{s.extra}</span>}
                </li>
              ))}
            </ol>
          </Section>
          <Section title={t('payouts.receipt')}>
            {/* "Not credited yet" only while it may still be; a payout that ended otherwise did not happen. */}
            {p!.status !== 'confirmed' && <p className="muted small">{t(isFinal(p!.status) ? 'payouts.notDone' : 'payouts.notProof')}</p>}
            <div className="actions">
              <button type="button" className="btn btn-secondary" onClick={() => run('html')} disabled={busy !== null}>
                {t('payouts.receiptHtml')}
              </button>
              <button type="button" className="btn btn-primary" onClick={() => run('pdf')} disabled={busy !== null}>
                {busy === 'pdf' ? t('common.loading') : t('payouts.receiptPdf')}
              </button>
            </div>
            {receiptError !== null && <ErrorBox error={receiptError} />}
          </Section>
        </div>
      </div>
    </>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
