import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { formatArs, formatDateTime, isoOf } from '../lib/format';
import { tOr, useI18n, type T } from '../lib/i18n';
import { toast } from './toast';

export function Money({ amount, className }: { amount: number | string; className?: string }) {
  return <span className={`money ${className ?? ''}`}>{formatArs(amount)}</span>;
}

export function When({ iso, seconds }: { iso: string | null | undefined; seconds?: boolean }) {
  const { lang } = useI18n();
  if (!iso) return <span>—</span>;
  return <time dateTime={isoOf(iso)}>{formatDateTime(iso, lang, { seconds })}</time>;
}

/** Plain words for an API error, in the UI language. */
export function errorText(t: T, e: unknown): string {
  if (e instanceof ApiError) {
    if (e.code === 'PAYOUT_DENIED') return t('error.PAYOUT_DENIED', { reasons: e.reasons.map((r) => tOr(t, `reason.${r}`, r)).join(', ') || e.message });
    if (e.code === 'INVALID_REQUEST') return t('error.INVALID_REQUEST', { message: e.message });
    return tOr(t, `error.${e.code}`, t('error.generic', { status: e.status, message: e.message }));
  }
  return t('error.generic', { status: '?', message: e instanceof Error ? e.message : String(e) });
}

export function ErrorBox({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useI18n();
  const ownerOnly = error instanceof ApiError && error.code === 'OWNER_SESSION_REQUIRED';
  const limited = error instanceof ApiError && error.code === 'RATE_LIMIT_EXCEEDED' ? Math.max(1, error.retryAfter ?? 5) : null;
  // A rate limit passes by itself: try again when the service said, without a click.
  const retry = useRef(onRetry);
  retry.current = onRetry;
  const canRetry = !!onRetry;
  useEffect(() => {
    if (limited === null || !canRetry) return;
    const id = setTimeout(() => retry.current?.(), limited * 1000);
    return () => clearTimeout(id);
  }, [limited, canRetry, error]);
  return (
    <div className="notice notice-error" role="alert" data-error={error instanceof ApiError ? error.code : undefined}>
      <strong>{ownerOnly ? t('ownerOnly.title') : limited !== null ? t('error.rateLimitedTitle') : t('error.title')}</strong>
      <p>{limited !== null && onRetry ? t('error.rateLimited', { s: limited }) : errorText(t, error)}</p>
      {onRetry && !ownerOnly && (
        <button type="button" className="btn btn-secondary" onClick={onRetry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}

export function Loading() {
  const { t } = useI18n();
  return (
    <p className="muted" role="status">
      {t('common.loading')}
    </p>
  );
}

/** Copies text; says so to screen readers too. Falls back to selecting a hidden field where the API is missing. */
export function CopyButton({ text, what, className }: { text: string; what: string; className?: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const id = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(id);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const el = document.createElement('textarea');
      el.value = text;
      el.setAttribute('readonly', '');
      el.className = 'visually-hidden';
      document.body.appendChild(el);
      el.select();
      document.execCommand('copy');
      el.remove();
    }
    setCopied(true);
    toast(t('common.copied'));
  };
  return (
    <button type="button" className={`btn btn-small btn-secondary ${className ?? ''}`} onClick={copy} aria-label={t('common.copyLabel', { what })}>
      {copied ? `✓ ${t('common.copied')}` : t('common.copy')}
    </button>
  );
}

/** A value with its copy button: CVU, alias, a secret. */
export function CopyField({ label, value, mono = true }: { label: string; value: string; mono?: boolean }) {
  const id = useId();
  return (
    <div className="copy-field">
      <span className="copy-label" id={id}>
        {label}
      </span>
      <span className="copy-row">
        <output aria-labelledby={id} className={mono ? 'mono copy-value' : 'copy-value'}>
          {value}
        </output>
        <CopyButton text={value} what={label} />
      </span>
    </div>
  );
}

/**
 * The confirmation step: a modal dialog (native <dialog>: focus stays inside, Escape cancels, focus returns to
 * the button that opened it).
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { t } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // One confirmation per opening: a double click lands its second click before `busy` has disabled the button.
  const confirmed = useRef(false);
  useEffect(() => {
    confirmed.current = false;
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onCancel={(e) => (e.preventDefault(), props.onCancel())}>
      {props.open && (
        <form
          method="dialog"
          onSubmit={(e) => {
            e.preventDefault();
            if (confirmed.current) return;
            confirmed.current = true;
            props.onConfirm();
          }}
        >
          <h2 id={titleId}>{props.title}</h2>
          <div className="dialog-body">{props.children}</div>
          <div className="actions">
            <button type="button" className="btn btn-secondary" onClick={props.onCancel} autoFocus>
              {t('common.cancel')}
            </button>
            <button type="submit" className={`btn ${props.danger ? 'btn-danger' : 'btn-primary'}`} disabled={props.busy}>
              {props.confirmLabel}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}

/** A labelled form field with its hint and its error, wired for screen readers. */
export function Field(props: {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  ok?: string | null;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const msgId = `${id}-msg`;
  const describedBy = [props.hint ? hintId : null, props.error || props.ok ? msgId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.children({ id, describedBy, invalid: !!props.error })}
      {props.hint && (
        <p className="hint" id={hintId}>
          {props.hint}
        </p>
      )}
      {(props.error || props.ok) && (
        <p className={props.error ? 'field-error' : 'field-ok'} id={msgId} aria-live="polite">
          {props.error ? `✗ ${props.error}` : `✓ ${props.ok}`}
        </p>
      )}
    </div>
  );
}

export function StatusBadge({ status, label }: { status: string; label: string }) {
  return <span className={`badge badge-${status}`}>{label}</span>;
}

export function Section({ title, children, actions, id }: { title: string; children: ReactNode; actions?: ReactNode; id?: string }) {
  const hid = useId();
  return (
    <section className="card" aria-labelledby={hid} id={id}>
      <div className="card-head">
        <h2 id={hid}>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}
