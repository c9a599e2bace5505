import type { AdminModule, CreateModuleBody } from '@aiplatform/contracts';
import { Button, Col, Flex, Form, Input, InputNumber, Radio, Row, Select, Switch } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { GroupAvailabilityField } from '../catalog/GroupAvailabilityField';
import { isHttpUrl } from '../shared/http-url';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { nextSortOrder } from '../models/model-sort';
import { MODULE_NAME_PATTERN, type ModuleFormValues, moduleBodyOf, moduleFormValuesOf } from './module-form-values';
import { moduleIconOptions } from './module-icon-options';
import { AUTH_MODE_KEYS, OPEN_MODE_KEYS } from './module-labels';
import { MODULE_CHANGE_KEYS } from './module-queries';

interface ModuleFormProps {
  module: AdminModule | null;
  modules: readonly AdminModule[];
  onClose: () => void;
}

const half = { xs: 24, sm: 12 } as const;

/** The module's id, names, menu icon, address, how it opens and signs in, health check, order and groups. */
export function ModuleForm({ module, modules, onClose }: ModuleFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ModuleFormValues>();
  const name = Form.useWatch('name', form);
  const sortOrder = nextSortOrder(modules);
  const initialValues = useMemo(() => moduleFormValuesOf(module, sortOrder), [module, sortOrder]);
  const displayName = Form.useWatch('display_name', form) ?? '';
  const letterLabel = t('catalog:modules.letterIcon');
  const iconOptions = useMemo(() => moduleIconOptions(displayName, letterLabel), [displayName, letterLabel]);
  const save = useAdminMutation({
    mutationFn: (body: CreateModuleBody) =>
      module ? call('updateModule', { params: { id: module.id }, body }) : call('createModule', { body }),
    invalidates: MODULE_CHANGE_KEYS,
    successText: (saved) =>
      module
        ? t('catalog:modules.updatedDone', { name: saved.display_name })
        : t('catalog:modules.createdDone', { name: saved.display_name }),
    failureKey: module ? 'catalog:modules.updateFailed' : 'catalog:modules.createFailed',
    onSuccess: onClose,
  });
  const httpUrl = (optional: boolean) => ({
    validator: (_: unknown, value: string | undefined) =>
      (optional && !value?.trim()) || isHttpUrl(value ?? '')
        ? Promise.resolve()
        : Promise.reject(new Error(t('validation:url.invalid'))),
  });

  return (
    <Form<ModuleFormValues>
      form={form}
      layout="vertical"
      initialValues={initialValues}
      onFinish={(values) => save.mutate(moduleBodyOf(values))}
      data-testid="module-form"
    >
      <Row gutter={16}>
        <Col {...half}>
          <Form.Item
            name="name"
            label={t('catalog:modules.fields.name')}
            extra={t('catalog:modules.form.nameHint', { path: `/module/${name?.trim() || '…'}` })}
            rules={[
              { required: true, whitespace: true, message: t('validation:moduleName.required') },
              { max: 64, message: t('validation:moduleName.pattern') },
              {
                validator: (_, value: string | undefined) =>
                  !value?.trim() || MODULE_NAME_PATTERN.test(value.trim())
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('validation:moduleName.pattern'))),
              },
            ]}
          >
            <Input maxLength={64} autoComplete="off" data-testid="module-form-name" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            name="display_name"
            label={t('catalog:modules.fields.displayName')}
            rules={[
              { required: true, whitespace: true, message: t('validation:displayName.required') },
              { max: 100, message: t('validation:displayName.max') },
            ]}
          >
            <Input maxLength={100} data-testid="module-form-display-name" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        name="description"
        label={t('catalog:modules.fields.description')}
        rules={[{ max: 500, message: t('validation:description.max') }]}
      >
        <Input.TextArea rows={2} maxLength={500} showCount data-testid="module-form-description" />
      </Form.Item>
      <Row gutter={16}>
        <Col {...half}>
          <Form.Item name="menu_icon" label={t('catalog:modules.fields.icon')}>
            <Select options={iconOptions} data-testid="module-form-icon" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            name="module_url"
            label={t('catalog:modules.fields.url')}
            rules={[{ required: true, whitespace: true, message: t('validation:url.invalid') }, httpUrl(false)]}
          >
            <Input placeholder="https://app.example.com" inputMode="url" data-testid="module-form-url" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        name="open_mode"
        label={t('catalog:modules.fields.openMode')}
        extra={t('catalog:modules.form.openModeHint')}
      >
        <Radio.Group
          options={(['iframe', 'new_tab'] as const).map((mode) => ({ value: mode, label: t(OPEN_MODE_KEYS[mode]) }))}
          data-testid="module-form-open-mode"
        />
      </Form.Item>
      <Form.Item
        name="auth_mode"
        label={t('catalog:modules.fields.authMode')}
        extra={t('catalog:modules.form.authModeHint')}
      >
        <Radio.Group
          options={(['none', 'signed_token'] as const).map((mode) => ({ value: mode, label: t(AUTH_MODE_KEYS[mode]) }))}
          data-testid="module-form-auth-mode"
        />
      </Form.Item>
      <Form.Item
        name="health_check_url"
        label={t('catalog:modules.fields.healthUrl')}
        extra={t('catalog:modules.form.healthUrlHint')}
        rules={[httpUrl(true)]}
      >
        <Input placeholder="https://app.example.com/health" inputMode="url" data-testid="module-form-health-url" />
      </Form.Item>
      <Flex gap={24} wrap>
        <Form.Item
          name="sort_order"
          label={t('catalog:modules.fields.sortOrder')}
          rules={[{ required: true, message: t('validation:sort.invalid') }]}
        >
          <InputNumber min={0} max={100_000} precision={0} data-testid="module-form-sort" />
        </Form.Item>
        <Form.Item name="is_active" label={t('catalog:modules.fields.active')} valuePropName="checked">
          <Switch data-testid="module-form-active" />
        </Form.Item>
      </Flex>
      <GroupAvailabilityField testIdPrefix="module-form" />
      <Flex justify="end" gap={8}>
        <Button onClick={onClose}>{t('common:cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="module-form-submit">
          {t('admin:actions.save')}
        </Button>
      </Flex>
    </Form>
  );
}
