import { ScreenHead } from '../components/screen';
import { useI18n } from '../lib/i18n';
import { Link } from '../lib/router';

export function NotFoundScreen() {
  const { t } = useI18n();
  return (
    <>
      <ScreenHead title={t('notFound.title')} intro={t('notFound.body')} />
      <Link to="/">{t('nav.home')}</Link>
    </>
  );
}
