import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';

/** The required reason every credit movement records on its ledger row (at most 200 characters). */
export function ReasonField({ label, testId }: { label: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="reason"
      label={label}
      rules={[
        { required: true, whitespace: true, message: t('validation:reason.required') },
        { max: 200, message: t('validation:reason.max') },
      ]}
    >
      <Input.TextArea rows={2} maxLength={200} showCount data-testid={testId} />
    </Form.Item>
  );
}
