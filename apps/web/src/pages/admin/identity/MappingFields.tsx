import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useGroupOptions } from '../shared/use-group-options';

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
      <Form.Item label={t('admin:identity.mapping.groupMap')} extra={t('admin:identity.mapping.groupMapHint')}>
        <Form.List name={['mapping', 'group_map']}>
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
                  <Form.Item
                    name={[field.name, 'group_id']}
                    rules={[{ required: true, message: t('validation:group.notFound') }]}
                    style={{ flex: '1 1 160px' }}
                  >
                    <Select
                      options={groups}
                      placeholder={t('admin:identity.mapping.group')}
                      aria-label={t('admin:identity.mapping.group')}
                    />
                  </Form.Item>
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={t('admin:actions.delete')}
                    onClick={() => remove(field.name)}
                  />
                </Flex>
              ))}
              <Button
                icon={<PlusOutlined />}
                onClick={() => add({ value: '', group_id: undefined })}
                data-testid="provider-add-group-map"
              >
                {t('admin:identity.mapping.addGroup')}
              </Button>
            </>
          )}
        </Form.List>
      </Form.Item>
      <Form.Item label={t('admin:identity.mapping.roleMap')} extra={t('admin:identity.mapping.roleMapHint')}>
        <Form.List name={['mapping', 'role_map']}>
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Flex key={field.key} gap={8} align="start">
                  <Form.Item
                    name={[field.name, 'value']}
                    rules={[{ required: true, whitespace: true, message: t('validation:identityProvider.mapValue') }]}
                    style={{ flex: 1 }}
                  >
                    <Input
                      placeholder={t('admin:identity.mapping.valuePlaceholder')}
                      aria-label={t('admin:identity.mapping.value')}
                    />
                  </Form.Item>
                  <Typography.Text style={{ lineHeight: '32px' }}>
                    → {t('admin:identity.mapping.groupAdmin')}
                  </Typography.Text>
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={t('admin:actions.delete')}
                    onClick={() => remove(field.name)}
                  />
                </Flex>
              ))}
              <Button
                icon={<PlusOutlined />}
                onClick={() => add({ value: '', role: 'admin' })}
                data-testid="provider-add-role-map"
              >
                {t('admin:identity.mapping.addRole')}
              </Button>
            </>
          )}
        </Form.List>
      </Form.Item>
    </>
  );
}
