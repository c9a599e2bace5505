import { Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { AccessGuard } from '../../../components/common/AccessGuard';
import { useDocumentTitle } from '../../../components/common/use-document-title';
import { i18n } from '../../../i18n';
import { registerAdminResources } from '../../../i18n/admin-resources';
import { AdminPageHeader } from '../shared/AdminPageHeader';
import { AdminTheme } from '../shared/AdminTheme';
import { LocalPasswordCard } from './LocalPasswordCard';
import { ProvidersCard } from './ProvidersCard';
import { ScimTokensCard } from './ScimTokensCard';

// Admin translations arrive with the admin chunks, before any admin screen renders.
registerAdminResources(i18n);

/** Identity & provisioning: the organisation's identity providers, SCIM tokens and the SSO-only switch. */
export default function AdminIdentityPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('admin:identity.title'));
  return (
    <AccessGuard page="identity">
      <AdminTheme>
        <AdminPageHeader title={t('admin:identity.title')} />
        <Flex vertical gap={16}>
          <ProvidersCard />
          <LocalPasswordCard />
          <ScimTokensCard />
        </Flex>
      </AdminTheme>
    </AccessGuard>
  );
}
