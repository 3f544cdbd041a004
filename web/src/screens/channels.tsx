import { OwnerOnly, ScreenHead } from '../components/screen';
import { useI18n } from '../lib/i18n';
import { TelegramSection } from './telegram';
import { WhatsAppSection } from './whatsapp';

/** Where the owner is asked (D23, D45): the dashboard always; WhatsApp and Telegram once linked. */
export function ChannelsScreen() {
  const { t } = useI18n();
  return (
    <>
      <ScreenHead title={t('ch.title')} intro={t('ch.intro')} />
      <OwnerOnly>
        <WhatsAppSection />
        <TelegramSection />
      </OwnerOnly>
    </>
  );
}
