import {
  AI_PROVIDERS,
  type AdminModel,
  type CreateModelBody,
  LIMITS,
  MODEL_KINDS,
  type ModelKind,
} from '@aiplatform/contracts';
import { SearchOutlined } from '@ant-design/icons';
import { Button, Col, Divider, Flex, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { GroupAvailabilityField } from '../catalog/GroupAvailabilityField';
import { isHttpUrl } from '../shared/http-url';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { ApiKeyField } from './ApiKeyField';
import { DiscoverModelsModal } from './DiscoverModelsModal';
import { PROVIDER_LABEL_KEYS, endpointRequired } from './model-format';
import {
  type ModelFormValues,
  discoverBodyOf,
  discoveredModelBodies,
  modelBodyOf,
  modelFormValuesOf,
} from './model-form-values';
import { MODEL_CHANGE_KEYS } from './model-queries';
import { nextSortOrder } from './model-sort';
import { useDiscoverModels } from './use-discover-models';

interface ModelFormProps {
  model: AdminModel | null;
  models: readonly AdminModel[];
  onClose: () => void;
}

const half = { xs: 24, sm: 12 } as const;

const KIND_LABELS: Record<ModelKind, string> = {
  chat: 'catalog:models.kinds.chat',
  embedding: 'catalog:models.kinds.embedding',
};

/** Connection (provider, address, write-only key, discovery), then the model's own settings. */
export function ModelForm({ model, models, onClose }: ModelFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ModelFormValues>();
  const [removeKey, setRemoveKey] = useState(false);
  const provider = Form.useWatch('provider', form);
  const sortOrder = nextSortOrder(models);
  const initialValues = useMemo(() => modelFormValuesOf(model, sortOrder), [model, sortOrder]);
  const existing = useMemo(() => new Set(models.map((m) => m.name)), [models]);
  const { found, close, discover, create } = useDiscoverModels();

  const save = useAdminMutation({
    mutationFn: (body: CreateModelBody) =>
      model ? call('updateModel', { params: { id: model.id }, body }) : call('createModel', { body }),
    invalidates: MODEL_CHANGE_KEYS,
    successText: (saved) =>
      model
        ? t('catalog:models.updatedDone', { name: saved.display_name })
        : t('catalog:models.createdDone', { name: saved.display_name }),
    failureKey: model ? 'catalog:models.updateFailed' : 'catalog:models.createFailed',
    onSuccess: onClose,
  });

  const runDiscover = async () => {
    try {
      await form.validateFields(['provider', 'api_endpoint', 'api_key']);
    } catch {
      return;
    }
    discover.mutate(discoverBodyOf(form.getFieldsValue(true) as ModelFormValues, model, removeKey));
  };

  const createDiscovered = (ids: string[]) => {
    const bodies = discoveredModelBodies(ids, form.getFieldsValue(true) as ModelFormValues, sortOrder);
    create.mutate(bodies, {
      onSuccess: () => {
        close();
        if (!model) onClose();
      },
    });
  };

  return (
    <Form<ModelFormValues>
      form={form}
      layout="vertical"
      initialValues={initialValues}
      onFinish={(values) => save.mutate(modelBodyOf(values, removeKey))}
      data-testid="model-form"
    >
      <Divider titlePlacement="start" plain style={{ marginTop: 0 }}>
        {t('catalog:models.form.connection')}
      </Divider>
      <Row gutter={16}>
        <Col {...half}>
          <Form.Item name="provider" label={t('catalog:models.fields.provider')}>
            <Select
              options={AI_PROVIDERS.map((p) => ({ value: p, label: t(PROVIDER_LABEL_KEYS[p]) }))}
              data-testid="model-form-provider"
            />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            name="api_endpoint"
            label={t('catalog:models.fields.endpoint')}
            extra={
              endpointRequired(provider)
                ? t('catalog:models.form.endpointHint')
                : t('catalog:models.form.endpointDefaultHint')
            }
            rules={[
              {
                required: endpointRequired(provider),
                whitespace: true,
                message: t('catalog:models.form.endpointRequired'),
              },
              {
                validator: (_, value: string | undefined) =>
                  !value?.trim() || isHttpUrl(value)
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('validation:url.invalid'))),
              },
            ]}
          >
            <Input placeholder="https://api.example.com/v1" inputMode="url" data-testid="model-form-endpoint" />
          </Form.Item>
        </Col>
      </Row>
      <ApiKeyField model={model} removeKey={removeKey} onRemoveKeyChange={setRemoveKey} />
      <Button
        icon={<SearchOutlined />}
        loading={discover.isPending}
        onClick={runDiscover}
        data-testid="model-form-discover"
      >
        {t('catalog:discover.button')}
      </Button>

      <Divider titlePlacement="start" plain>
        {t('catalog:models.form.model')}
      </Divider>
      <Row gutter={16}>
        <Col {...half}>
          <Form.Item
            name="name"
            label={t('catalog:models.fields.name')}
            extra={t('catalog:models.form.nameHint')}
            rules={[
              { required: true, whitespace: true, message: t('validation:modelName.required') },
              { max: 200, message: t('validation:modelName.max') },
              { pattern: /^\s*\S+\s*$/, message: t('validation:modelName.pattern') },
            ]}
          >
            <Input maxLength={200} autoComplete="off" data-testid="model-form-name" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            name="display_name"
            label={t('catalog:models.fields.displayName')}
            extra={t('catalog:models.form.displayNameHint')}
            rules={[{ max: 100, message: t('validation:displayName.max') }]}
          >
            <Input maxLength={100} data-testid="model-form-display-name" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            name="credits_per_chat"
            label={t('catalog:models.fields.creditsPerChat')}
            rules={[{ required: true, message: t('validation:creditsPerChat.invalid') }]}
          >
            <InputNumber
              min={0}
              max={1_000_000}
              precision={0}
              style={{ width: '100%' }}
              data-testid="model-form-credits"
            />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item name="kind" label={t('catalog:models.fields.kind')} extra={t('catalog:models.form.kindHint')}>
            <Select
              options={MODEL_KINDS.map((kind) => ({ value: kind, label: t(KIND_LABELS[kind]) }))}
              data-testid="model-form-kind"
            />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            name="context_window"
            label={t('catalog:models.fields.contextWindow')}
            extra={t('catalog:models.form.contextWindowHint')}
            rules={[{ required: true, message: t('validation:contextWindow.invalid') }]}
          >
            <InputNumber
              min={1_000}
              max={10_000_000}
              precision={0}
              style={{ width: '100%' }}
              data-testid="model-form-context-window"
            />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            name="credits_per_1k_document_tokens"
            label={t('catalog:models.fields.documentPrice')}
            extra={t('catalog:models.form.documentPriceHint')}
            rules={[{ required: true, message: t('validation:documentPrice.invalid') }]}
          >
            <InputNumber
              min={0}
              max={1_000_000}
              precision={0}
              style={{ width: '100%' }}
              data-testid="model-form-document-price"
            />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            name="sort_order"
            label={t('catalog:models.fields.sortOrder')}
            rules={[{ required: true, message: t('validation:sort.invalid') }]}
          >
            <InputNumber min={0} max={100_000} precision={0} style={{ width: '100%' }} data-testid="model-form-sort" />
          </Form.Item>
        </Col>
      </Row>
      <Flex gap={24} wrap>
        <Form.Item name="stream_enabled" label={t('catalog:models.fields.stream')} valuePropName="checked">
          <Switch data-testid="model-form-stream" />
        </Form.Item>
        <Form.Item
          name="image_upload_enabled"
          label={t('catalog:models.fields.images')}
          valuePropName="checked"
          extra={t('catalog:models.form.imagesHint', { mb: LIMITS.imageBytesPerTurn / (1024 * 1024) })}
          style={{ maxWidth: 360 }}
        >
          <Switch data-testid="model-form-images" />
        </Form.Item>
        <Form.Item name="is_active" label={t('catalog:models.fields.active')} valuePropName="checked">
          <Switch data-testid="model-form-active" />
        </Form.Item>
      </Flex>
      <GroupAvailabilityField testIdPrefix="model-form" />
      <Flex justify="end" gap={8}>
        <Button onClick={onClose}>{t('common:cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="model-form-submit">
          {t('admin:actions.save')}
        </Button>
      </Flex>
      <DiscoverModelsModal
        found={found}
        existing={existing}
        creating={create.isPending}
        onClose={close}
        onUseName={(id) => {
          form.setFieldsValue({ name: id, ...(form.getFieldValue('display_name') ? {} : { display_name: id }) });
          close();
        }}
        onCreate={createDiscovered}
      />
    </Form>
  );
}
