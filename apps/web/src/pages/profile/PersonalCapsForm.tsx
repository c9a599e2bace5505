import { CAP_PERIODS, CAPS_MAX, type CapPeriod, type MyCaps } from '@aiplatform/contracts';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Flex, Form, Input, InputNumber, Select, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { capLine } from '../../api/cap-text';
import { saveMyCaps } from '../../api/caps';
import { toast } from '../../api/notify';
import { queryKeys } from '../../api/query-keys';
import { useMyCaps } from '../../api/use-caps';
import { errorText, reportError } from '../../components/common/report-error';

interface Values {
  caps: { period: CapPeriod; credits: number | null; model_name?: string | null }[];
}

function CapsForm({ caps }: { caps: MyCaps }) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [errors, setErrors] = useState<string[]>([]);
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (values: Values) =>
      saveMyCaps({
        caps: values.caps.map((c) => ({
          period: c.period,
          credits: c.credits as number,
          model_name: c.model_name?.trim() ? c.model_name.trim() : null,
        })),
      }),
    onSuccess: (saved) => {
      setErrors([]);
      queryClient.setQueryData(queryKeys.myCaps, saved);
      toast('success', t('profile:caps.saved'));
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 400)
        return setErrors(error.validationErrors.length > 0 ? error.validationErrors : [error.message]);
      reportError(error, 'profile:caps.saveFailed');
    },
  });
  const now = new Date();
  const fromAdmin = caps.applying.filter((c) => c.source !== 'personal');
  return (
    <Flex vertical gap={16}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('profile:caps.hint')}
      </Typography.Paragraph>
      {fromAdmin.length > 0 && (
        <Alert
          type="info"
          title={t('profile:caps.adminCaps')}
          description={
            <ul className="profile-caps-list">
              {fromAdmin.map((c) => (
                <li key={`${c.source}/${c.period}/${c.model_name ?? ''}`}>{capLine(t, c, now, i18n.language)}</li>
              ))}
            </ul>
          }
        />
      )}
      <Form<Values>
        form={form}
        initialValues={{ caps: caps.personal }}
        onFinish={(values) => save.mutate({ caps: values.caps ?? [] })}
        onValuesChange={() => setErrors([])}
        data-testid="personal-caps-form"
      >
        <Form.List name="caps">
          {(fields, { add, remove }) => (
            <Flex vertical gap={8}>
              {fields.map((field, index) => (
                <Flex key={field.key} gap={8} wrap data-testid={`personal-cap-${index}`}>
                  <Form.Item name={[field.name, 'period']} noStyle>
                    <Select
                      options={CAP_PERIODS.map((p) => ({ value: p, label: t(`common:caps.period.${p}`) }))}
                      style={{ width: 130 }}
                      aria-label={t('profile:caps.period')}
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'credits']} noStyle>
                    <InputNumber<number>
                      min={1}
                      precision={0}
                      placeholder={t('profile:caps.credits')}
                      aria-label={t('profile:caps.credits')}
                      style={{ width: 130 }}
                      data-testid={`personal-cap-credits-${index}`}
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'model_name']} noStyle>
                    <Input
                      placeholder={t('profile:caps.anyModel')}
                      aria-label={t('profile:caps.model')}
                      style={{ flex: '1 1 140px', minWidth: 140, width: 'auto' }}
                    />
                  </Form.Item>
                  <Button
                    icon={<DeleteOutlined />}
                    onClick={() => remove(field.name)}
                    aria-label={t('profile:caps.remove')}
                  />
                </Flex>
              ))}
              <Form.ErrorList errors={errors} />
              <Flex gap={8} wrap justify="space-between">
                <Button
                  icon={<PlusOutlined />}
                  onClick={() => add({ period: 'day', credits: null, model_name: null })}
                  disabled={fields.length >= CAPS_MAX}
                  data-testid="personal-cap-add"
                >
                  {t('profile:caps.add')}
                </Button>
                <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="personal-caps-save">
                  {t('profile:caps.save')}
                </Button>
              </Flex>
            </Flex>
          )}
        </Form.List>
      </Form>
    </Flex>
  );
}

/** The profile's caps tab: the administrators' caps, and the person's own lower ones. */
export function PersonalCapsForm() {
  const caps = useMyCaps();
  if (caps.isLoading) return <Skeleton active title={false} paragraph={{ rows: 3 }} />;
  if (!caps.data) return <Alert type="error" showIcon title={errorText(caps.error, 'profile:caps.loadFailed')} />;
  return <CapsForm caps={caps.data} />;
}
