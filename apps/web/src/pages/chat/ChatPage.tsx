import { useTranslation } from 'react-i18next';
import { AccessGuard } from '../../components/common/AccessGuard';
import { PreparingResult } from '../../components/common/PreparingResult';

/** Chat needs `chat.use`; its screens are not available yet, and the page says so. */
export default function ChatPage() {
  const { t } = useTranslation();
  return (
    <AccessGuard anyPermission={['chat.use']}>
      <PreparingResult title={t('pages:chat.title')} />
    </AccessGuard>
  );
}
