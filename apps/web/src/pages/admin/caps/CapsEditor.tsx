import { ALERT_CHANNELS, CAP_PERIODS, CAPS_MAX, type CapsBody, type CapsConfig } from '@aiplatform/contracts';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AutoComplete, Button, Checkbox, Flex, Form, Input, InputNumber, Select, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../api/api-error';
import { type CapsSubject, fetchSubjectCaps, saveSubjectCaps } from '../../../api/caps';
import { chatApi } from '../../../api/chat';
import { toast } from '../../../api/notify';
import { adminKeys, queryKeys } from '../../../api/query-keys';
import { reportError } from '../../../components/common/report-error';
import { translateMessageKey } from '../../../i18n';
import { QueryErrorResult } from '../shared/QueryErrorResult';
import './caps.css';
import { type CapsErrorPlace, type CapsFormValues, bodyOf, formValuesOf, placeServerErrors } from './caps-form';

const NO_ERRORS: Record<CapsErrorPlace, string[]> = { caps: [], alerts: [], webhook_url: [] };

function CapsForm({ subject, config }: { subject: CapsSubject; config: CapsConfig }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CapsFormValues>();
  const [errors, setErrors] = useState(NO_ERRORS);
  const queryClient = useQueryClient();
  const models = useQuery({ queryKey: queryKeys.chatModels, queryFn: chatApi.models, staleTime: 60_000 });
  const modelOptions = (models.data ?? []).map((m) => ({ value: m.name, label: m.display_name || m.name }));
  const save = useMutation({
    mutationFn: (body: CapsBody) => saveSubjectCaps(subject, body),
    onSuccess: (saved) => {
      setErrors(NO_ERRORS);
      queryClient.setQueryData(adminKeys.caps(subject.type, subject.id), saved);
      form.setFieldsValue(formValuesOf(saved));
      toast('success', t('admin:caps.saved'));
    },
  });
  const submit = (values: CapsFormValues) => {
    const body = bodyOf(values);
    save.mutate(body, {
      onError: (error) => {
        const messages = isApiError(error) && error.status === 400 ? error.validationErrors : [];
        if (messages.length === 0) {
          if (isApiError(error) && error.status === 400 && error.message)
            setErrors({ ...NO_ERRORS, caps: [error.message] });
          else reportError(error, 'admin:caps.saveFailed');
          return;
        }
        setErrors(placeServerErrors(messages, body, translateMessageKey));
      },
    });
  };
  const periodOptions = CAP_PERIODS.map((p) => ({ value: p, label: t(`common:caps.period.${p}`) }));
  const channelOptions = ALERT_CHANNELS.map((c) => ({ value: c, label: t(`admin:caps.channel.${c}`) }));
  const testId = `caps-editor-${subject.type}`;

  return (
    <Form<CapsFormValues>
      form={form}
      layout="vertical"
      initialValues={formValuesOf(config)}
      onFinish={submit}
      onValuesChange={() => setErrors(NO_ERRORS)}
      data-testid={testId}
    >
      <Typography.Paragraph type="secondary">{t(`admin:caps.hint.${subject.type}`)}</Typography.Paragraph>
      <Form.List name="caps">
        {(fields, { add, remove }) => (
          <fieldset className="caps-fieldset">
            <legend>{t('admin:caps.capsTitle')}</legend>
            {fields.map((field, index) => (
              <Flex key={field.key} gap={8} wrap align="start" data-testid={`cap-row-${index}`}>
                <Form.Item name={[field.name, 'period']} noStyle>
                  <Select
                    options={periodOptions}
                    style={{ width: 130 }}
                    aria-label={t('admin:caps.period')}
                    data-testid={`cap-period-${index}`}
                  />
                </Form.Item>
                <Form.Item name={[field.name, 'credits']} noStyle>
                  <InputNumber<number>
                    min={1}
                    precision={0}
                    placeholder={t('admin:caps.credits')}
                    aria-label={t('admin:caps.credits')}
                    style={{ width: 130 }}
                    data-testid={`cap-credits-${index}`}
                  />
                </Form.Item>
                <Form.Item name={[field.name, 'model_name']} noStyle>
                  <AutoComplete
                    options={modelOptions}
                    allowClear
                    placeholder={t('admin:caps.anyModel')}
                    aria-label={t('admin:caps.model')}
                    style={{ flex: '1 1 140px', minWidth: 140 }}
                    data-testid={`cap-model-${index}`}
                  />
                </Form.Item>
                <Button
                  icon={<DeleteOutlined />}
                  onClick={() => remove(field.name)}
                  aria-label={t('admin:caps.removeCap')}
                  data-testid={`cap-remove-${index}`}
                />
              </Flex>
            ))}
            {fields.length === 0 && <Typography.Text type="secondary">{t('admin:caps.noCaps')}</Typography.Text>}
            <Form.ErrorList errors={errors.caps} />
            <Button
              icon={<PlusOutlined />}
              onClick={() => add({ period: 'day', credits: null, model_name: null })}
              disabled={fields.length >= CAPS_MAX}
              data-testid="cap-add"
            >
              {t('admin:caps.addCap')}
            </Button>
          </fieldset>
        )}
      </Form.List>
      <Form.List name="alerts">
        {(fields, { add, remove }) => (
          <fieldset className="caps-fieldset">
            <legend>{t('admin:caps.alertsTitle')}</legend>
            <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
              {t(`admin:caps.alertsHint.${subject.type}`)}
            </Typography.Paragraph>
            {fields.map((field, index) => (
              <Flex key={field.key} gap={8} wrap align="center" data-testid={`alert-row-${index}`}>
                <Form.Item name={[field.name, 'percent']} noStyle>
                  <InputNumber<number>
                    min={1}
                    max={100}
                    precision={0}
                    suffix="%"
                    aria-label={t('admin:caps.percent')}
                    style={{ width: 100 }}
                    data-testid={`alert-percent-${index}`}
                  />
                </Form.Item>
                <Form.Item name={[field.name, 'channels']} noStyle>
                  <Checkbox.Group
                    options={channelOptions}
                    aria-label={t('admin:caps.channels')}
                    data-testid={`alert-channels-${index}`}
                  />
                </Form.Item>
                <Button
                  icon={<DeleteOutlined />}
                  onClick={() => remove(field.name)}
                  aria-label={t('admin:caps.removeAlert')}
                  data-testid={`alert-remove-${index}`}
                />
              </Flex>
            ))}
            <Form.ErrorList errors={errors.alerts} />
            <Button
              icon={<PlusOutlined />}
              onClick={() => add({ percent: 80, channels: ['in_app'] })}
              disabled={fields.length >= CAPS_MAX}
              data-testid="alert-add"
            >
              {t('admin:caps.addAlert')}
            </Button>
          </fieldset>
        )}
      </Form.List>
      <Form.Item
        name="webhook_url"
        label={t('admin:caps.webhookUrl')}
        validateStatus={errors.webhook_url.length > 0 ? 'error' : undefined}
        help={errors.webhook_url.length > 0 ? errors.webhook_url.join(' ') : undefined}
        extra={
          config.webhook_url ? (
            <span>
              {t('admin:caps.webhookSecret')}{' '}
              <Typography.Text code copyable data-testid="caps-webhook-secret">
                {config.webhook_secret}
              </Typography.Text>
            </span>
          ) : undefined
        }
      >
        <Input placeholder="https://" inputMode="url" data-testid="caps-webhook-url" />
      </Form.Item>
      <Flex justify="end">
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="caps-save">
          {t('admin:actions.save')}
        </Button>
      </Flex>
    </Form>
  );
}

/** A user's or a group's usage caps, budget alerts and webhook, as an administrator edits them. */
export function CapsEditor({ subject }: { subject: CapsSubject }) {
  const config = useQuery({
    queryKey: adminKeys.caps(subject.type, subject.id),
    queryFn: () => fetchSubjectCaps(subject),
  });
  if (config.isLoading) return <Spin />;
  if (config.isError || !config.data)
    return <QueryErrorResult error={config.error} onRetry={() => void config.refetch()} />;
  return <CapsForm key={`${subject.type}/${subject.id}`} subject={subject} config={config.data} />;
}
