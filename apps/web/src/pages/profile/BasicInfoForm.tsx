import type { User } from '@aiplatform/contracts';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/call';
import { toast } from '../../api/notify';
import { useFormRules } from '../../components/common/form-rules';
import { reportError } from '../../components/common/report-error';
import { useAuthStore } from '../../stores/auth-store';

interface BasicValues {
  username: string;
  email: string;
  phone?: string;
}

/** Username and phone are editable; the email identifies the account and is read-only. */
export function BasicInfoForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [saving, setSaving] = useState(false);

  const onFinish = async (v: BasicValues) => {
    setSaving(true);
    try {
      const { user: updated } = await call('updateProfile', {
        body: { username: v.username.trim(), phone: v.phone?.trim() || null },
      });
      useAuthStore.getState().setUser(updated);
      toast('success', t('profile:basic.saved'));
    } catch (error) {
      reportError(error, 'profile:basic.failed');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<BasicValues>
      name="profile-basic"
      layout="vertical"
      style={{ maxWidth: 480 }}
      initialValues={{ username: user.username, email: user.email, phone: user.phone ?? '' }}
      onFinish={onFinish}
    >
      <Form.Item name="username" label={t('profile:basic.username')} rules={rules.username}>
        <Input autoComplete="username" data-testid="profile-username" />
      </Form.Item>
      <Form.Item name="email" label={t('profile:basic.email')} extra={t('profile:basic.emailReadOnly')}>
        <Input disabled data-testid="profile-email" />
      </Form.Item>
      <Form.Item name="phone" label={t('profile:basic.phone')} rules={rules.phone}>
        <Input autoComplete="tel" placeholder={t('profile:basic.phonePlaceholder')} data-testid="profile-phone" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving} data-testid="profile-save">
        {t('profile:basic.save')}
      </Button>
    </Form>
  );
}
