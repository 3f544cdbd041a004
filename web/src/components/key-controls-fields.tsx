import type { ReactNode } from 'react';
import { SCOPES, type KeyControls, type Scope } from '../api/types';
import { useI18n } from '../lib/i18n';
import type { MessageKey } from '../lib/messages';
import { AmountInput, DateInput, DestinationListEditor } from './inputs';

/** Whether the three limit fields hold numbers (an amount being typed may not yet). */
export const keyLimitsValid = (d: KeyControls): boolean =>
  [d.per_tx_limit_ars, d.daily_limit_ars, d.monthly_limit_ars].every((v) => v !== null && Number.isFinite(v));

/**
 * D31: an agent's controls, the same fields wherever the owner sets them: editing a key, and consenting to an app
 * that connects by OAuth (D44). `scopeNote` adds a word after a scope (the consent page marks those not asked for).
 */
export function KeyControlsFields({
  draft,
  onChange,
  onDateValid,
  scopeNote,
}: {
  draft: KeyControls;
  onChange: (draft: KeyControls) => void;
  onDateValid: (valid: boolean) => void;
  scopeNote?: (scope: Scope) => ReactNode;
}) {
  const { t } = useI18n();
  return (
    <>
      <fieldset>
        <legend>{t('agents.scopes')}</legend>
        <div className="checks">
          {SCOPES.map((s) => (
            <label key={s} className="check">
              <input
                type="checkbox"
                checked={draft.scopes.includes(s)}
                onChange={(e) => onChange({ ...draft, scopes: e.target.checked ? [...draft.scopes, s] : draft.scopes.filter((x) => x !== s) })}
              />
              {t(`scope.${s}` as MessageKey)} <span className="mono muted small">{s}</span>
              {scopeNote?.(s)}
            </label>
          ))}
        </div>
      </fieldset>
      <DestinationListEditor
        label={t('agents.allowlist')}
        addLabel={t('agents.allowlistAdd')}
        emptyText={t('limits.whitelistEmpty')}
        value={draft.allowlist}
        onChange={(allowlist) => onChange({ ...draft, allowlist })}
      />
      <fieldset>
        <legend>{t('agents.keyLimits')}</legend>
        <div className="grid-3">
          {(['per_tx_limit_ars', 'daily_limit_ars', 'monthly_limit_ars'] as const).map((f) => (
            <AmountInput key={f} label={t(`limits.${f}`)} hint={t('limits.zero')} value={draft[f]} onChange={(v) => onChange({ ...draft, [f]: v as number })} />
          ))}
        </div>
      </fieldset>
      <DateInput
        label={t('agents.expiresAt')}
        value={draft.expires_at}
        onChange={(expires_at, valid) => {
          onDateValid(valid);
          if (valid) onChange({ ...draft, expires_at });
        }}
      />
    </>
  );
}
