import type { AdminModule } from '@aiplatform/contracts';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../i18n';
import { registerAdminResources } from '../../../i18n/admin-resources';
import { AdminTheme } from '../shared/AdminTheme';
import { useGroupNames } from '../catalog/GroupAvailabilityField';
import { QueryErrorResult } from '../shared/QueryErrorResult';
import { useOverlaySize } from '../shared/use-overlay-size';
import { useFocusableTableScroll } from '../shared/use-focusable-scroll';
import { useOverlayTarget } from '../shared/use-overlay-target';
import { ModuleFormModal } from './ModuleFormModal';
import { ModuleRowActions } from './ModuleRowActions';
import { moduleColumns } from './module-columns';
import { useAdminModules } from './module-queries';

// Admin translations arrive with the admin chunks, before any admin screen renders.
registerAdminResources(i18n);

export interface ModulesTabProps {
  /** Group administrators read the list; they change nothing. */
  readOnly: boolean;
}

function ModulesWorkspace({ readOnly }: ModulesTabProps) {
  const { t } = useTranslation();
  // An empty table still scrolls sideways: its scroll area must be reachable from the keyboard.
  const scrollRef = useFocusableTableScroll(t('settings:tabs.modules'));
  const { isMobile } = useOverlaySize();
  const list = useAdminModules();
  const modules = list.data ?? [];
  const groupNames = useGroupNames();
  const form = useOverlayTarget<AdminModule | null>();
  const columns = moduleColumns({
    t,
    isMobile,
    readOnly,
    groupNames,
    ...(readOnly ? {} : { actions: (module: AdminModule) => <ModuleRowActions module={module} onEdit={form.show} /> }),
  });

  if (list.isError && !list.data)
    return <QueryErrorResult error={list.error} onRetry={() => void list.refetch()} testId="modules-error" />;
  return (
    <div data-testid="modules-tab" ref={scrollRef}>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <Typography.Text type="secondary">{t('catalog:modules.intro')}</Typography.Text>
        {!readOnly && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => form.show(null)}
            data-testid="module-create-button"
          >
            {t('catalog:modules.add')}
          </Button>
        )}
      </Flex>
      <Table<AdminModule>
        rowKey="id"
        columns={columns}
        dataSource={modules}
        loading={list.isFetching}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('catalog:modules.empty')} data-testid="modules-empty" /> }}
        data-testid="modules-table"
      />
      {!readOnly && (
        <ModuleFormModal
          module={form.target}
          open={form.open}
          modules={modules}
          onClose={form.hide}
          afterClose={form.afterClose}
        />
      )}
    </div>
  );
}

/** The modules tab of the system settings: the organisation's other web apps in the side menu. */
export function ModulesTab({ readOnly }: ModulesTabProps) {
  return (
    <AdminTheme>
      <ModulesWorkspace readOnly={readOnly} />
    </AdminTheme>
  );
}

export default ModulesTab;
