import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { qk } from '../api/queries';
import { OwnerOnly, ScreenHead } from '../components/screen';
import { CopyField, ErrorBox, Field } from '../components/ui';
import { cuitDigits, cuitProblem, formatCuitInput } from '../lib/ar-ids';
import { useI18n } from '../lib/i18n';
import { navigate } from '../lib/router';

interface Opened {
  cvu: string;
  alias: string;
  kyc_status: string;
}

export function OnboardingScreen() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [cuit, setCuit] = useState('');
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [opened, setOpened] = useState<Opened | null>(null);

  const problem = cuitProblem(cuit);
  // While typing, only say "incomplete" once the field was left; a wrong check digit or letters at once.
  const showProblem = problem && (touched || (problem !== 'incomplete' && problem !== 'empty'));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (problem || !name.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const res = await unwrap(api.POST('/v1/onboarding', { body: { legal_id: cuitDigits(cuit), legal_name: name.trim() } }));
      setOpened(res);
      qc.setQueryData(qk.cvu, { cvu: res.cvu, alias: res.alias, asset: res.asset });
      void qc.invalidateQueries({ queryKey: qk.balance });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  if (opened) {
    return (
      <div className="narrow">
        <ScreenHead title={t('onb.doneTitle')} intro={t('onb.doneIntro')} />
        <div className="card">
          <CopyField label={t('wallet.cvu')} value={opened.cvu} />
          <CopyField label={t('wallet.alias')} value={opened.alias} />
          {opened.kyc_status !== 'verified' && (
            <p className="notice notice-warn" role="status">
              {t('onb.kycPending')}
            </p>
          )}
          <div className="actions">
            <button type="button" className="btn btn-primary" onClick={() => navigate('/')}>
              {t('onb.goHome')}
            </button>
          </div>
        </div>
      </div>
    );
  }

  return (
    <div className="narrow">
      <ScreenHead title={t('onb.title')} intro={t('onb.intro')} />
      <OwnerOnly>
        <form className="card" onSubmit={submit}>
          <Field
            label={t('onb.legalId')}
            hint={t('onb.legalIdHint')}
            error={showProblem ? t(`onb.cuit.${problem}`) : null}
            ok={!problem ? t('onb.cuit.ok') : null}
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                inputMode="numeric"
                autoComplete="off"
                placeholder="20-12345678-6"
                value={cuit}
                maxLength={14}
                onChange={(e) => setCuit(formatCuitInput(e.target.value))}
                onBlur={() => setTouched(true)}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                required
              />
            )}
          </Field>
          <Field label={t('onb.legalName')} hint={t('onb.legalNameHint')}>
            {({ id, describedBy }) => (
              <input id={id} autoComplete="name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} aria-describedby={describedBy} />
            )}
          </Field>
          {error !== null && <ErrorBox error={error} />}
          <button type="submit" className="btn btn-primary btn-block" disabled={busy || !!problem || !name.trim()}>
            {busy ? t('onb.submitting') : t('onb.submit')}
          </button>
        </form>
      </OwnerOnly>
    </div>
  );
}
