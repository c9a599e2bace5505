import { useTranslation } from 'react-i18next';
import { AccessGuard } from '../../../components/common/AccessGuard';
import { PreparingResult } from '../../../components/common/PreparingResult';

/** System settings: super administrators and group administrators (read-only for the latter). */
export default function AdminSettingsPage() {
  const { t } = useTranslation();
  return (
    <AccessGuard roles={['super_admin', 'admin']}>
      <PreparingResult title={t('pages:adminSettings.title')} />
    </AccessGuard>
  );
}
