import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Form, Input, Select, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useGroupOptions } from '../shared/use-group-options';

interface MapRowsProps {
  list: 'group_map' | 'role_map';
  label: string;
  extra: string;
  addLabel: string;
  newRow: Record<string, unknown>;
  /** What a matching value leads to, beside it. */
  target: (name: number) => ReactNode;
  testId: string;
}

/** One list of the mapping: a value the person may carry, and what it leads to. */
function MapRows({ list, label, extra, addLabel, newRow, target, testId }: MapRowsProps) {
  const { t } = useTranslation();
  return (
    <Form.Item label={label} extra={extra}>
      <Form.List name={['mapping', list]}>
        {(fields, { add, remove }) => (
          <>
            {fields.map((field) => (
              <Flex key={field.key} gap={8} align="start" wrap>
                <Form.Item
                  name={[field.name, 'value']}
                  rules={[{ required: true, whitespace: true, message: t('validation:identityProvider.mapValue') }]}
                  style={{ flex: '2 1 200px' }}
                >
                  <Input
                    placeholder={t('admin:identity.mapping.valuePlaceholder')}
                    aria-label={t('admin:identity.mapping.value')}
                  />
                </Form.Item>
                {target(field.name)}
                <Button
                  icon={<DeleteOutlined />}
                  aria-label={t('admin:actions.delete')}
                  onClick={() => remove(field.name)}
                />
              </Flex>
            ))}
            <Button icon={<PlusOutlined />} onClick={() => add(newRow)} data-testid={testId}>
              {addLabel}
            </Button>
          </>
        )}
      </Form.List>
    </Form.Item>
  );
}

/**
 * Where the person's email, username, name and groups are read from, and which group
 * values put them in which of our groups or make them a group administrator (never a
 * super administrator: the server refuses that).
 */
export function MappingFields() {
  const { t } = useTranslation();
  const { options: groups } = useGroupOptions();
  return (
    <>
      <Typography.Title level={5}>{t('admin:identity.mapping.title')}</Typography.Title>
      <Flex gap={12} wrap>
        {(['email_claim', 'username_claim', 'name_claim', 'groups_claim'] as const).map((name) => (
          <Form.Item
            key={name}
            name={['mapping', name]}
            label={t(`admin:identity.mapping.${name}`)}
            style={{ flex: '1 1 200px' }}
          >
            <Input data-testid={`provider-mapping-${name}`} />
          </Form.Item>
        ))}
      </Flex>
      <Form.Item
        name={['mapping', 'required_groups']}
        label={t('admin:identity.mapping.requiredGroups')}
        extra={t('admin:identity.mapping.requiredGroupsHint')}
      >
        <Select
          mode="tags"
          open={false}
          tokenSeparators={['\n']}
          placeholder={t('admin:identity.mapping.valuePlaceholder')}
          aria-label={t('admin:identity.mapping.requiredGroups')}
          data-testid="provider-required-groups"
        />
      </Form.Item>
      <MapRows
        list="group_map"
        label={t('admin:identity.mapping.groupMap')}
        extra={t('admin:identity.mapping.groupMapHint')}
        addLabel={t('admin:identity.mapping.addGroup')}
        newRow={{ value: '', group_id: undefined }}
        testId="provider-add-group-map"
        target={(name) => (
          <Form.Item
            name={[name, 'group_id']}
            rules={[{ required: true, message: t('validation:group.notFound') }]}
            style={{ flex: '1 1 160px' }}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={groups}
              placeholder={t('admin:identity.mapping.group')}
              aria-label={t('admin:identity.mapping.group')}
            />
          </Form.Item>
        )}
      />
      <MapRows
        list="role_map"
        label={t('admin:identity.mapping.roleMap')}
        extra={t('admin:identity.mapping.roleMapHint')}
        addLabel={t('admin:identity.mapping.addRole')}
        newRow={{ value: '', role: 'admin' }}
        testId="provider-add-role-map"
        target={() => (
          <Typography.Text style={{ lineHeight: '32px' }}>→ {t('admin:identity.mapping.groupAdmin')}</Typography.Text>
        )}
      />
    </>
  );
}
