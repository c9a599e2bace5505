import type { IdentityProvider, SsoPreview } from '@aiplatform/contracts';
import { Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { useAdminMutation } from '../shared/use-admin-mutation';

interface Props {
  provider: IdentityProvider | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
  onPreview: (preview: SsoPreview) => void;
}

interface Values {
  login: string;
  password: string;
}

/** A directory's test sign-in: the person's login and password, checked once by the directory and never kept. */
export function LdapPreviewModal({ provider, open, onClose, afterClose, onPreview }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const run = useAdminMutation({
    mutationFn: (values: Values) => call('previewIdentityProvider', { params: { id: provider!.id }, body: values }),
    invalidates: [],
    successText: () => t('admin:identity.preview.titleShort'),
    failureKey: 'admin:identity.preview.startFailed',
    onSuccess: (result) => {
      if (result.preview) onPreview(result.preview);
      onClose();
    },
  });
  return (
    <Modal
      open={open}
      title={t('admin:identity.preview.ldapTitle', { name: provider?.name ?? '' })}
      onCancel={onClose}
      afterClose={() => {
        form.resetFields();
        afterClose();
      }}
      onOk={() => form.submit()}
      okText={t('admin:identity.preview.run')}
      confirmLoading={run.isPending}
      okButtonProps={{ 'data-testid': 'ldap-preview-submit' }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('admin:identity.preview.ldapHint')}</Typography.Paragraph>
      <Form<Values> form={form} layout="vertical" onFinish={(values) => run.mutate(values)}>
        <Form.Item name="login" label={t('admin:identity.preview.login')} rules={[{ required: true }]}>
          <Input autoComplete="off" data-testid="ldap-preview-login" />
        </Form.Item>
        <Form.Item name="password" label={t('admin:identity.preview.password')} rules={[{ required: true }]}>
          <Input.Password autoComplete="new-password" data-testid="ldap-preview-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
