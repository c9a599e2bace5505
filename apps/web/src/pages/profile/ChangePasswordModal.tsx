import type { CallBody } from '@aiplatform/contracts';
import { Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/call';
import { toast } from '../../api/notify';
import { useFormRules } from '../../components/common/form-rules';
import { reportError } from '../../components/common/report-error';
import { useAuthStore } from '../../stores/auth-store';

type PasswordValues = CallBody<'changePassword'>;

/** Old password, new password (min 6) and its confirmation; PUT /auth/password. */
export function ChangePasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<PasswordValues>();
  const [saving, setSaving] = useState(false);
  const email = useAuthStore((s) => s.user?.email ?? '');

  const close = () => {
    form.resetFields();
    onClose();
  };
  const onFinish = async (values: PasswordValues) => {
    setSaving(true);
    try {
      await call('changePassword', { body: values });
      toast('success', t('profile:password.changed'));
      close();
    } catch (error) {
      reportError(error, 'profile:password.failed');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('profile:password.change')}
      onCancel={close}
      destroyOnHidden
      data-testid="change-password-modal"
      footer={[
        <Button key="cancel" onClick={close} data-testid="change-password-cancel">
          {t('common:cancel')}
        </Button>,
        <Button
          key="submit"
          type="primary"
          loading={saving}
          onClick={() => form.submit()}
          data-testid="change-password-submit"
        >
          {t('profile:password.submit')}
        </Button>,
      ]}
    >
      <Form<PasswordValues> form={form} name="change-password" layout="vertical" onFinish={onFinish}>
        {/* Lets password managers file the new password under the right account. */}
        <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
        <Form.Item
          name="oldPassword"
          label={t('profile:password.old')}
          rules={[{ required: true, message: t('profile:password.oldRequired') }]}
        >
          <Input.Password autoComplete="current-password" data-testid="change-password-old" />
        </Form.Item>
        <Form.Item name="newPassword" label={t('profile:password.new')} rules={rules.newPassword}>
          <Input.Password autoComplete="new-password" data-testid="change-password-new" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('profile:password.confirm')}
          dependencies={['newPassword']}
          rules={rules.confirm('newPassword')}
        >
          <Input.Password autoComplete="new-password" data-testid="change-password-confirm" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
