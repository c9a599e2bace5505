import type { AdminModel } from '@aiplatform/contracts';
import { Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { formatNumber } from '../../../components/common/format';
import { activeColumn, groupsColumn } from '../catalog/catalog-columns';
import { ModelActiveSwitch } from './ModelActiveSwitch';
import { ModelTestStatus } from './ModelTestStatus';
import { PROVIDER_LABEL_KEYS, keyHint } from './model-format';
import { DragHandle } from './sortable-rows';

interface ModelColumnsInput {
  t: TFunction;
  language: string;
  isMobile: boolean;
  readOnly: boolean;
  groupNames: Map<number, string>;
  /** The row's buttons; absent in read-only mode. */
  actions?: (model: AdminModel) => ReactNode;
}

/** Columns of the model list; editing columns (handle, switch, actions) only when the reader may change models. */
export function modelColumns({
  t,
  language,
  isMobile,
  readOnly,
  groupNames,
  actions,
}: ModelColumnsInput): ColumnsType<AdminModel> {
  const columns: ColumnsType<AdminModel> = [
    {
      key: 'model',
      title: t('catalog:models.columns.model'),
      width: 220,
      render: (_, model) => (
        <div>
          <Typography.Text strong>{model.display_name}</Typography.Text>
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`model-name-${model.id}`}>
              {model.name}
            </Typography.Text>
          </div>
        </div>
      ),
    },
    {
      key: 'provider',
      title: t('catalog:models.columns.provider'),
      width: 150,
      render: (_, model) => t(PROVIDER_LABEL_KEYS[model.provider]),
    },
    {
      key: 'endpoint',
      title: t('catalog:models.columns.endpoint'),
      width: 220,
      render: (_, model) =>
        model.api_endpoint ? (
          <Typography.Text ellipsis={{ tooltip: model.api_endpoint }} style={{ maxWidth: 200 }}>
            {model.api_endpoint}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">{t('catalog:models.defaultEndpoint')}</Typography.Text>
        ),
    },
    {
      key: 'key',
      title: t('catalog:models.columns.key'),
      width: 110,
      render: (_, model) => {
        const hint = keyHint(model);
        if (hint === '')
          return <Typography.Text data-testid={`model-key-${model.id}`}>{t('catalog:models.keySet')}</Typography.Text>;
        return hint ? (
          <Typography.Text code data-testid={`model-key-${model.id}`}>
            {hint}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary" data-testid={`model-key-${model.id}`}>
            {t('catalog:models.keyNotSet')}
          </Typography.Text>
        );
      },
    },
    {
      key: 'credits',
      title: t('catalog:models.columns.credits'),
      width: 124,
      align: 'right',
      render: (_, model) => formatNumber(model.credits_per_chat, language),
    },
    {
      key: 'features',
      title: t('catalog:models.columns.features'),
      width: 150,
      render: (_, model) => (
        <Space size={[0, 4]} wrap>
          {model.stream_enabled && <Tag>{t('catalog:models.stream')}</Tag>}
          {model.image_upload_enabled && <Tag>{t('catalog:models.images')}</Tag>}
          {!model.stream_enabled && !model.image_upload_enabled && (
            <Typography.Text type="secondary">—</Typography.Text>
          )}
        </Space>
      ),
    },
    activeColumn(t, readOnly, (model) => <ModelActiveSwitch model={model} />),
    groupsColumn(t, groupNames),
    {
      key: 'test',
      title: t('catalog:models.columns.lastTest'),
      width: 200,
      render: (_, model) => <ModelTestStatus model={model} />,
    },
  ];
  if (readOnly || !actions) return columns;
  return [
    {
      key: 'sort',
      title: t('catalog:sort.column'),
      width: 64,
      align: 'center',
      render: (_, model) => (
        <DragHandle label={t('catalog:sort.handle', { name: model.display_name })} testId={`model-drag-${model.id}`} />
      ),
    },
    ...columns,
    {
      key: 'actions',
      title: t('catalog:columns.actions'),
      width: 200,
      fixed: isMobile ? undefined : 'right',
      render: (_, model) => actions(model),
    },
  ];
}
