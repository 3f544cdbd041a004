import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { qk, usePendingApprovals } from '../api/queries';
import type { Thresholds } from '../api/types';
import { ApprovalCard } from '../components/approval-card';
import { AmountInput, DestinationListEditor } from '../components/inputs';
import { OwnerOnly, ScreenHead } from '../components/screen';
import { toast } from '../components/toast';
import { ErrorBox, Loading, Section } from '../components/ui';
import { useI18n } from '../lib/i18n';

const AMOUNTS = ['require_approval_above_ars', 'per_tx_limit_ars', 'daily_limit_ars', 'monthly_limit_ars'] as const;
type Draft = { [K in (typeof AMOUNTS)[number]]: number | null } & { whitelist_cbus: string[] };
const FIELDS = [...AMOUNTS, 'whitelist_cbus'] as const;
const sameField = (a: Draft, b: Draft, f: (typeof FIELDS)[number]) => JSON.stringify(a[f]) === JSON.stringify(b[f]);
const sameDraft = (a: Draft, b: Draft) => FIELDS.every((f) => sameField(a, b, f));

export function LimitsScreen() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const current = useQuery({ queryKey: qk.thresholds, queryFn: () => unwrap(api.GET('/v1/thresholds')) });
  const pending = usePendingApprovals();
  const proposals = (pending.data?.approvals ?? []).filter((a) => a.kind === 'threshold_change');
  const [draft, setDraft] = useState<Draft | null>(null);
  // The stored limits the draft started from: a field that differs from them is one the owner changed.
  const [base, setBase] = useState<Draft | null>(null);
  const [changedMeanwhile, setChangedMeanwhile] = useState(false);
  // Follow the stored limits (an approved proposal, another device): the fields the owner has not changed take the
  // stored values, the ones they changed keep what they typed, so saving never puts back, unseen, values changed
  // meanwhile. Only a new answer from the service re-runs this; it reads the draft and base of that render.
  useEffect(() => {
    if (!current.data) return;
    const stored: Draft = { ...current.data };
    const next = draft && base ? (Object.fromEntries(FIELDS.map((f) => [f, sameField(draft, base, f) ? stored[f] : draft[f]])) as Draft) : stored;
    setDraft(next);
    setBase(stored);
    if (!sameDraft(next, stored)) setChangedMeanwhile(true);
  }, [current.data]);

  const save = useMutation({
    mutationFn: (body: Thresholds) => unwrap(api.PUT('/v1/thresholds', { body })),
    onSuccess: async (_res, saved) => {
      toast(t('limits.saved'));
      // What was saved is now what the draft started from: the stored answer (as the service wrote it) is taken whole.
      setBase({ ...saved });
      setChangedMeanwhile(false);
      await Promise.all([qc.invalidateQueries({ queryKey: qk.thresholds }), qc.invalidateQueries({ queryKey: qk.pending })]);
    },
  });
  const valid = draft !== null && AMOUNTS.every((f) => draft[f] !== null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid || !draft) return;
    // PUT writes all five fields (an omitted number would be written as 0, the contract says).
    save.mutate({
      per_tx_limit_ars: draft.per_tx_limit_ars!,
      daily_limit_ars: draft.daily_limit_ars!,
      monthly_limit_ars: draft.monthly_limit_ars!,
      require_approval_above_ars: draft.require_approval_above_ars!,
      whitelist_cbus: draft.whitelist_cbus,
    });
  };

  return (
    <>
      <ScreenHead title={t('limits.title')} intro={t('limits.intro')} />
      <OwnerOnly>
        {proposals.length > 0 && (
          <Section title={t('limits.proposals')}>
            <div className="approval-list">
              {proposals.map((a) => (
                <ApprovalCard key={a.id} approval={a} fetchedAt={pending.dataUpdatedAt} />
              ))}
            </div>
          </Section>
        )}
        {current.isPending || !draft ? (
          current.error ? <ErrorBox error={current.error} onRetry={() => current.refetch()} /> : <Loading />
        ) : (
          <form onSubmit={submit} className="card" aria-label={t('limits.title')}>
            <div className="grid-2 tight">
              {AMOUNTS.map((f) => (
                <AmountInput
                  key={f}
                  name={f}
                  label={t(`limits.${f}`)}
                  hint={`${t(`limits.${f}.hint`)} ${t('limits.zero')}.`}
                  value={draft[f]}
                  onChange={(v) => setDraft({ ...draft, [f]: v })}
                />
              ))}
            </div>
            <p className="hint">{t('limits.whitelistIntro')}</p>
            <DestinationListEditor
              label={t('limits.whitelist')}
              addLabel={t('limits.whitelistAdd')}
              emptyText={t('limits.whitelistEmpty')}
              value={draft.whitelist_cbus}
              onChange={(whitelist_cbus) => setDraft({ ...draft, whitelist_cbus })}
            />
            {changedMeanwhile && (
              <p className="notice notice-warn" role="status">
                {t('limits.changedMeanwhile')}
              </p>
            )}
            {save.error && <ErrorBox error={save.error} />}
            <div className="actions">
              <button type="submit" className="btn btn-primary" disabled={!valid || save.isPending}>
                {save.isPending ? t('common.saving') : t('common.save')}
              </button>
            </div>
          </form>
        )}
      </OwnerOnly>
    </>
  );
}
