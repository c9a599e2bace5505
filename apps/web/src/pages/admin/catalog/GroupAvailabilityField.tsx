import { Form, Radio, Select, Space, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useGroupOptions } from '../shared/use-group-options';

/**
 * Which groups may use a model or see a module: every group, or the chosen ones. The
 * form holds `group_scope` and `group_ids` (catalog-groups.ts).
 */
export function GroupAvailabilityField({ testIdPrefix }: { testIdPrefix: string }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const scope = Form.useWatch<string | undefined>('group_scope', form);
  const { options, loading } = useGroupOptions();
  return (
    <>
      <Form.Item
        name="group_scope"
        label={t('catalog:groups.label')}
        style={{ marginBottom: scope === 'selected' ? 8 : undefined }}
      >
        <Radio.Group
          options={[
            { value: 'all', label: t('catalog:groups.all') },
            { value: 'selected', label: t('catalog:groups.selected') },
          ]}
          data-testid={`${testIdPrefix}-group-scope`}
        />
      </Form.Item>
      {scope === 'selected' && (
        <Form.Item
          name="group_ids"
          label={t('catalog:groups.choose')}
          rules={[{ required: true, type: 'array', min: 1, message: t('catalog:groups.required') }]}
        >
          <Select<number[]>
            mode="multiple"
            options={options.map(({ value, label }) => ({ value, label }))}
            loading={loading}
            optionFilterProp="label"
            placeholder={t('catalog:groups.placeholder')}
            style={{ width: '100%' }}
            data-testid={`${testIdPrefix}-groups`}
          />
        </Form.Item>
      )}
    </>
  );
}

/** Group names by id, for showing the groups a model or module is limited to. */
export function useGroupNames(): Map<number, string> {
  const { options } = useGroupOptions();
  return useMemo(() => new Map(options.map((o) => [o.value, o.label])), [options]);
}

/** "All groups", or the names of the chosen groups (ids the reader may not see show as #id). */
export function GroupAvailabilityTags({
  groupIds,
  names,
}: {
  groupIds: readonly number[];
  names: Map<number, string>;
}) {
  const { t } = useTranslation();
  if (groupIds.length === 0) return <Typography.Text type="secondary">{t('catalog:groups.all')}</Typography.Text>;
  return (
    <Space size={[0, 4]} wrap>
      {groupIds.map((id) => (
        <Tag key={id}>{names.get(id) ?? `#${id}`}</Tag>
      ))}
    </Space>
  );
}
