import { useEffect, useId, useState } from 'react';
import { checkDestination, sameDestination } from '../lib/ar-ids';
import { formatArsPlain, formatDateAr, parseArs, parseDateAr } from '../lib/format';
import { useI18n } from '../lib/i18n';
import { Field } from './ui';

/**
 * An ARS amount typed the Argentine way (`150.000,50`), reformatted when the field is left. `onChange` gets the
 * number, or null while the text is not an amount.
 */
export function AmountInput(props: { label: string; hint?: string; value: number | null; onChange(v: number | null): void; name?: string }) {
  const { t } = useI18n();
  const [text, setText] = useState(props.value === null ? '' : formatArsPlain(props.value));
  const [focused, setFocused] = useState(false);
  const [edited, setEdited] = useState(false);
  useEffect(() => {
    if (!focused) setText(props.value === null ? '' : formatArsPlain(props.value));
  }, [props.value, focused]);
  const parsed = parseArs(text);
  // A field the owner emptied is no amount either: say so, or Save is off with no word why.
  const invalid = (text.trim() !== '' || edited) && parsed === null;
  return (
    <Field label={props.label} hint={props.hint} error={invalid ? t('limits.invalid') : null}>
      {({ id, describedBy }) => (
        <span className="amount-input">
          <span className="amount-prefix" aria-hidden="true">
            $
          </span>
          <input
            id={id}
            name={props.name}
            inputMode="decimal"
            autoComplete="off"
            value={text}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onFocus={() => setFocused(true)}
            onBlur={() => {
              setFocused(false);
              if (parsed !== null) setText(formatArsPlain(parsed));
            }}
            onChange={(e) => {
              setText(e.target.value);
              setEdited(true);
              props.onChange(parseArs(e.target.value));
            }}
          />
        </span>
      )}
    </Field>
  );
}

/** A list of CBU/CVU/alias entries: each new one validated as it is typed (check digits, alias rules). */
export function DestinationListEditor(props: { label: string; addLabel: string; emptyText: string; value: string[]; onChange(v: string[]): void }) {
  const { t } = useI18n();
  const [draft, setDraft] = useState('');
  const listId = useId();
  const check = checkDestination(draft);
  const duplicate = check.problem === null && props.value.some((v) => sameDestination(v, check.value));
  const error = draft.trim() === '' ? null : duplicate ? t('limits.whitelistDuplicate') : check.problem && check.problem !== 'incomplete' ? t(`dest.${check.problem}`) : null;
  const ok = draft.trim() !== '' && check.problem === null && !duplicate ? t('dest.ok', { kind: t(`dest.${check.kind!}`) }) : null;
  const add = () => {
    if (check.problem !== null || duplicate) return;
    props.onChange([...props.value, check.value]);
    setDraft('');
  };
  return (
    <fieldset className="dest-list">
      <legend>{props.label}</legend>
      {props.value.length === 0 ? (
        <p className="muted" id={listId}>
          {props.emptyText}
        </p>
      ) : (
        <ul id={listId} className="chips">
          {props.value.map((v) => {
            const kind = checkDestination(v).kind;
            return (
              <li key={v} className="chip">
                <span className="mono">{v}</span>
                {kind && <span className="muted small"> {t(`dest.${kind}`)}</span>}
                <button type="button" className="btn btn-small btn-ghost" onClick={() => props.onChange(props.value.filter((x) => x !== v))} aria-label={`${t('common.remove')} ${v}`}>
                  ✕
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <div className="add-row">
        <Field label={props.addLabel} error={error} ok={ok}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              value={draft}
              autoComplete="off"
              spellCheck={false}
              placeholder="2850590940090418135201 / mi.alias"
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  add();
                }
              }}
            />
          )}
        </Field>
        <button type="button" className="btn btn-secondary" onClick={add} disabled={check.problem !== null || duplicate}>
          {t('common.add')}
        </button>
      </div>
    </fieldset>
  );
}

/**
 * A date typed as es-AR writes it (`31/12/2026`), whatever the browser's locale: a native date field would show
 * the browser's own format (`12/31/2026` on an English one). `onChange` gets the end of that day in Buenos Aires
 * as ISO, null when empty, and `valid` says whether the text is a date.
 */
export function DateInput(props: { label: string; value: string | null; onChange(v: string | null, valid: boolean): void }) {
  const { t } = useI18n();
  const [text, setText] = useState(formatDateAr(props.value));
  const invalid = text.trim() !== '' && parseDateAr(text) === null;
  // The service refuses an expiry that has passed: say so here, in words, rather than after Save.
  const past = (s: string) => {
    const iso = parseDateAr(s);
    return iso !== null && Date.parse(iso) <= Date.now();
  };
  const gone = past(text);
  return (
    <Field label={props.label} hint={t('agents.expiresHint')} error={invalid ? t('agents.expiresInvalid') : gone ? t('agents.expiresPast') : null}>
      {({ id, describedBy }) => (
        <input
          id={id}
          inputMode="numeric"
          autoComplete="off"
          placeholder="dd/mm/aaaa"
          value={text}
          aria-describedby={describedBy}
          aria-invalid={invalid || gone}
          onChange={(e) => {
            setText(e.target.value);
            const v = e.target.value.trim() === '' ? null : parseDateAr(e.target.value);
            props.onChange(v, e.target.value.trim() === '' || (v !== null && !past(e.target.value)));
          }}
        />
      )}
    </Field>
  );
}
