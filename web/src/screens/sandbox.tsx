import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { qk } from '../api/queries';
import { AmountInput } from '../components/inputs';
import { OwnerOnly, ScreenHead } from '../components/screen';
import { toast } from '../components/toast';
import { ErrorBox, Field, Section } from '../components/ui';
import { checkDestination } from '../lib/ar-ids';
import { formatArs } from '../lib/format';
import { useSendOnce } from '../lib/hooks';
import { useI18n } from '../lib/i18n';

type Kyc = 'pending' | 'verified' | 'rejected';

const DEFAULT_AMOUNT = 150000;

/** D26: the sandbox's helpers (owner only): money arriving from another bank, and KYC outcomes. */
export function SandboxScreen() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [amount, setAmount] = useState<number | null>(DEFAULT_AMOUNT);
  const [fromName, setFromName] = useState('');
  const [fromCbu, setFromCbu] = useState('');
  const [kyc, setKyc] = useState<Kyc>('verified');
  const cbu = checkDestination(fromCbu);
  const cbuError = fromCbu.trim() && (cbu.kind === 'ALIAS' || (cbu.problem && cbu.problem !== 'incomplete')) ? t(cbu.kind === 'ALIAS' ? 'dest.incomplete' : `dest.${cbu.problem!}`) : null;

  const deposit = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/sandbox/deposits', {
          body: { amount_ars: amount!, ...(fromName.trim() ? { from_name: fromName.trim() } : {}), ...(fromCbu.trim() ? { from_cbu: cbu.value } : {}) },
        }),
      ),
    onSuccess: (d) => {
      toast(t('sandbox.deposited', { amount: formatArs(d.amount) }));
      // A fresh form for the next one: nothing of this deposit is left to send twice by mistake.
      setAmount(DEFAULT_AMOUNT);
      setFromName('');
      setFromCbu('');
      for (const key of [qk.balance, qk.deposits, qk.activity]) void qc.invalidateQueries({ queryKey: key });
    },
  });
  const setStatus = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/sandbox/kyc', { body: { status: kyc } })),
    onSuccess: (r) => toast(t('sandbox.kycSet', { status: t(`kyc.${r.kyc_status}`) })),
  });

  const sendDeposit = useSendOnce(deposit);
  const submitDeposit = (e: FormEvent) => {
    e.preventDefault();
    if (amount && amount > 0 && !cbuError && (!fromCbu.trim() || cbu.problem === null)) sendDeposit();
  };

  return (
    <>
      <ScreenHead title={t('sandbox.title')} intro={t('sandbox.intro')} />
      <OwnerOnly>
        <div className="grid-2">
          <Section title={t('sandbox.deposit')}>
            <form onSubmit={submitDeposit}>
              <AmountInput label={t('sandbox.amount')} value={amount} onChange={setAmount} name="amount" />
              <Field label={t('sandbox.fromName')}>
                {({ id }) => <input id={id} value={fromName} maxLength={200} onChange={(e) => setFromName(e.target.value)} />}
              </Field>
              <Field label={t('sandbox.fromCbu')} error={cbuError} ok={fromCbu.trim() && cbu.problem === null && cbu.kind !== 'ALIAS' ? t('dest.ok', { kind: cbu.kind! }) : null}>
                {({ id, describedBy, invalid }) => (
                  <input id={id} inputMode="numeric" value={fromCbu} onChange={(e) => setFromCbu(e.target.value)} aria-describedby={describedBy} aria-invalid={invalid} />
                )}
              </Field>
              {deposit.error && <ErrorBox error={deposit.error} />}
              <button type="submit" className="btn btn-primary" disabled={deposit.isPending || !amount}>
                {t('sandbox.depositDo')}
              </button>
            </form>
          </Section>
          <Section title={t('sandbox.kyc')}>
            <form
              onSubmit={(e) => {
                e.preventDefault();
                setStatus.mutate();
              }}
            >
              <Field label={t('sandbox.kycStatus')}>
                {({ id }) => (
                  <select id={id} value={kyc} onChange={(e) => setKyc(e.target.value as Kyc)}>
                    <option value="verified">{t('kyc.verified')}</option>
                    <option value="pending">{t('kyc.pending')}</option>
                    <option value="rejected">{t('kyc.rejected')}</option>
                  </select>
                )}
              </Field>
              {setStatus.error && <ErrorBox error={setStatus.error} />}
              <button type="submit" className="btn btn-secondary" disabled={setStatus.isPending}>
                {t('sandbox.kycDo')}
              </button>
            </form>
          </Section>
        </div>
      </OwnerOnly>
    </>
  );
}
