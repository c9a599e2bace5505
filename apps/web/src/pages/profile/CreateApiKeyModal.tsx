import { API_KEY_LIMITS, API_KEY_PERIODS, type CreatedApiKey } from '@aiplatform/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DatePicker, Flex, Form, Input, InputNumber, Modal, Select } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/call';
import { queryKeys } from '../../api/query-keys';
import {
  type ApiKeyFormValues,
  EMPTY_API_KEY_FORM,
  type PeriodChoice,
  apiKeyBodyOf,
} from '../../components/api-keys/api-key-form';
import { reportError } from '../../components/common/report-error';

interface CreateApiKeyModalProps {
  open: boolean;
  onClose: () => void;
  /** The new key with its secret, to be shown once. */
  onCreated: (created: CreatedApiKey) => void;
}

const PERIOD_CHOICES: readonly PeriodChoice[] = ['none', ...API_KEY_PERIODS];

/** A new key: name, models, credit limit per period, expiry, networks and requests per minute. */
export function CreateApiKeyModal({ open, onClose, onCreated }: CreateApiKeyModalProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [form] = Form.useForm<ApiKeyFormValues>();
  const period = Form.useWatch('period', form) ?? 'none';
  const models = useQuery({
    queryKey: queryKeys.apiKeyModels,
    queryFn: () => call('listApiKeyModels'),
    enabled: open,
  });
  const create = useMutation({
    mutationFn: (values: ApiKeyFormValues) => call('createApiKey', { body: apiKeyBodyOf(values) }),
    onSuccess: async (created) => {
      onCreated(created);
      onClose();
      await client.invalidateQueries({ queryKey: queryKeys.apiKeys });
    },
    onError: (error) => reportError(error, 'profile:apiKeys.createFailed'),
  });

  return (
    <Modal
      open={open}
      title={t('profile:apiKeys.createTitle')}
      okText={t('profile:apiKeys.create')}
      cancelText={t('common:cancel')}
      confirmLoading={create.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'api-key-create-submit' }}
      data-testid="api-key-create-modal"
    >
      <Form<ApiKeyFormValues>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={EMPTY_API_KEY_FORM}
        onFinish={(values) => create.mutate(values)}
      >
        <Form.Item
          name="name"
          label={t('profile:apiKeys.name')}
          rules={[
            { required: true, whitespace: true, message: t('validation:personalKey.name') },
            { max: API_KEY_LIMITS.nameMax, message: t('validation:personalKey.nameMax') },
          ]}
        >
          <Input
            maxLength={API_KEY_LIMITS.nameMax}
            placeholder={t('profile:apiKeys.namePlaceholder')}
            data-testid="api-key-name"
          />
        </Form.Item>
        <Form.Item name="models" label={t('profile:apiKeys.models')} extra={t('profile:apiKeys.modelsHint')}>
          <Select
            mode="multiple"
            allowClear
            loading={models.isLoading}
            placeholder={t('profile:apiKeys.allModels')}
            options={(models.data ?? []).map((m) => ({
              value: m.name,
              label: m.kind === 'embedding' ? `${m.display_name} (${t('profile:apiKeys.embedding')})` : m.display_name,
            }))}
            optionFilterProp="label"
            data-testid="api-key-models"
          />
        </Form.Item>
        <Flex gap={16} wrap align="start">
          <Form.Item name="period" label={t('profile:apiKeys.limitPeriod')} style={{ minWidth: 160, flex: 1 }}>
            <Select
              options={PERIOD_CHOICES.map((p) => ({
                value: p,
                label: p === 'none' ? t('profile:apiKeys.noLimit') : t(`profile:apiKeys.period.${p}`),
              }))}
              data-testid="api-key-period"
            />
          </Form.Item>
          {period !== 'none' && (
            <Form.Item
              name="credit_limit"
              label={t('profile:apiKeys.creditLimit')}
              rules={[{ required: true, message: t('validation:personalKey.creditLimit') }]}
              style={{ minWidth: 160, flex: 1 }}
            >
              <InputNumber
                min={1}
                max={API_KEY_LIMITS.creditLimitMax}
                precision={0}
                style={{ width: '100%' }}
                data-testid="api-key-credit-limit"
              />
            </Form.Item>
          )}
        </Flex>
        <Flex gap={16} wrap align="start">
          <Form.Item
            name="expires_on"
            label={t('profile:apiKeys.expiresOn')}
            extra={t('profile:apiKeys.expiresHint')}
            style={{ minWidth: 160, flex: 1 }}
          >
            <DatePicker
              allowClear
              placeholder={t('profile:apiKeys.never')}
              disabledDate={(d) => d.isBefore(dayjs(), 'day')}
              style={{ width: '100%' }}
              data-testid="api-key-expires"
            />
          </Form.Item>
          <Form.Item
            name="rpm"
            label={t('profile:apiKeys.rpm')}
            extra={t('profile:apiKeys.rpmHint')}
            style={{ minWidth: 160, flex: 1 }}
          >
            <InputNumber
              min={1}
              max={API_KEY_LIMITS.rpmMax}
              precision={0}
              style={{ width: '100%' }}
              data-testid="api-key-rpm"
            />
          </Form.Item>
        </Flex>
        <Form.Item name="ip_allow" label={t('profile:apiKeys.ipAllow')} extra={t('profile:apiKeys.ipAllowHint')}>
          <Input.TextArea rows={2} placeholder="203.0.113.0/24" data-testid="api-key-ip-allow" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
