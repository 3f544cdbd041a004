import { useI18n } from '../lib/i18n';
import { CopyField } from './ui';

/** An API key's secret, shown once (D11): copy button, the warning, and an explicit "I saved it". */
export function SecretReveal({ secret, onDone, doneLabel }: { secret: string; onDone(): void; doneLabel?: string }) {
  const { t } = useI18n();
  return (
    <div className="secret" data-testid="secret-reveal">
      <p className="notice notice-warn" role="alert">
        <strong aria-hidden="true">⚠ </strong>
        {t('secret.warning')}
      </p>
      <CopyField label={t('secret.label')} value={secret} />
      <div className="actions">
        <button type="button" className="btn btn-primary" onClick={onDone}>
          {doneLabel ?? t('secret.done')}
        </button>
      </div>
    </div>
  );
}
