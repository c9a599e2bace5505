import type { AdminModel } from '@aiplatform/contracts';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../i18n';
import { registerAdminResources } from '../../../i18n/admin-resources';
import { AdminTheme } from '../shared/AdminTheme';
import { useGroupNames } from '../catalog/GroupAvailabilityField';
import { QueryErrorResult } from '../shared/QueryErrorResult';
import { useOverlaySize } from '../shared/use-overlay-size';
import { useOverlayTarget } from '../shared/use-overlay-target';
import { ModelFormModal } from './ModelFormModal';
import { ModelRowActions } from './ModelRowActions';
import { ModelsTable } from './ModelsTable';
import { modelColumns } from './model-columns';
import { useAdminModels } from './model-queries';
import { useModelSort } from './use-model-sort';

// Admin translations arrive with the admin chunks, before any admin screen renders.
registerAdminResources(i18n);

export interface ModelsTabProps {
  /** Group administrators read the list; they change nothing. */
  readOnly: boolean;
}

function ModelsWorkspace({ readOnly }: ModelsTabProps) {
  const { t, i18n: i18next } = useTranslation();
  const { isMobile } = useOverlaySize();
  const list = useAdminModels();
  const models = list.data ?? [];
  const groupNames = useGroupNames();
  const sort = useModelSort();
  const form = useOverlayTarget<AdminModel | null>();
  const columns = modelColumns({
    t,
    language: i18next.language,
    isMobile,
    readOnly,
    groupNames,
    ...(readOnly ? {} : { actions: (model: AdminModel) => <ModelRowActions model={model} onEdit={form.show} /> }),
  });

  if (list.isError && !list.data)
    return <QueryErrorResult error={list.error} onRetry={() => void list.refetch()} testId="models-error" />;
  return (
    <div data-testid="models-tab">
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <Typography.Text type="secondary">
          {readOnly ? t('catalog:models.intro') : `${t('catalog:models.intro')} ${t('catalog:models.dragHint')}`}
        </Typography.Text>
        {!readOnly && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => form.show(null)}
            data-testid="model-create-button"
          >
            {t('catalog:models.add')}
          </Button>
        )}
      </Flex>
      <ModelsTable
        models={models}
        columns={columns}
        loading={list.isFetching || sort.saving}
        {...(readOnly ? {} : { onMove: sort.move })}
      />
      {!readOnly && (
        <ModelFormModal
          model={form.target}
          open={form.open}
          models={models}
          onClose={form.hide}
          afterClose={form.afterClose}
        />
      )}
    </div>
  );
}

/** The AI models tab of the system settings: the models offered in chat, their keys, prices, order and groups. */
export function ModelsTab({ readOnly }: ModelsTabProps) {
  return (
    <AdminTheme>
      <ModelsWorkspace readOnly={readOnly} />
    </AdminTheme>
  );
}

export default ModelsTab;
