import type { ReactNode } from 'react';
import { useTitle } from '../lib/hooks';
import { useI18n } from '../lib/i18n';
import { useSession } from '../lib/session';

/** A screen's heading (focused on navigation) and intro. */
export function ScreenHead({ title, intro, actions }: { title: string; intro?: ReactNode; actions?: ReactNode }) {
  const { t } = useI18n();
  useTitle(title, t('app.name'));
  return (
    <div className="screen-head">
      <div>
        <h1 tabIndex={-1}>{title}</h1>
        {intro && <p className="intro">{intro}</p>}
      </div>
      {actions && <div className="screen-actions">{actions}</div>}
    </div>
  );
}

/**
 * Owner-only screens (D13, D28): with an agent's token the API answers 403 to every change; the page says so up
 * front instead of showing controls that cannot work.
 */
export function OwnerOnly({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  const session = useSession();
  if (session?.kind === 'api_key') {
    return (
      <div className="notice notice-error" role="alert">
        <strong>{t('ownerOnly.title')}</strong>
        <p>{t('error.OWNER_SESSION_REQUIRED')}</p>
      </div>
    );
  }
  return <>{children}</>;
}
