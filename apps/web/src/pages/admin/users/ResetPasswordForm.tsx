import type { AdminUser } from '@aiplatform/contracts';
import { Alert, Button, Flex, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { useFormRules } from '../../../components/common/form-rules';
import { useAdminMutation } from '../shared/use-admin-mutation';

interface PasswordValues {
  newPassword: string;
  confirmPassword: string;
}

/** Sets a new password for the user; the server signs them out everywhere. */
export function ResetPasswordForm({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<PasswordValues>();
  const reset = useAdminMutation({
    mutationFn: (newPassword: string) => call('resetPassword', { params: { id: user.id }, body: { newPassword } }),
    invalidates: [adminKeys.user(user.id)],
    successText: () => t('admin:password.done', { name: user.username }),
    failureKey: 'admin:password.failed',
    onSuccess: () => form.resetFields(),
  });
  return (
    <Form<PasswordValues>
      form={form}
      layout="vertical"
      onFinish={(values) => reset.mutate(values.newPassword)}
      data-testid="user-password-form"
    >
      <Alert type="warning" showIcon title={t('admin:password.hint')} style={{ marginBottom: 16 }} />
      <Form.Item name="newPassword" label={t('admin:password.new')} rules={rules.newPassword}>
        <Input.Password autoComplete="new-password" data-testid="user-password-new" />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t('admin:password.confirm')}
        dependencies={['newPassword']}
        rules={rules.confirm('newPassword')}
      >
        <Input.Password autoComplete="new-password" data-testid="user-password-confirm" />
      </Form.Item>
      <Flex justify="end">
        <Button type="primary" htmlType="submit" loading={reset.isPending} data-testid="user-password-submit">
          {t('admin:password.submit')}
        </Button>
      </Flex>
    </Form>
  );
}
