import type { AdminUserDetail } from '@aiplatform/contracts';
import { DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Divider, Flex, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { toast } from '../../../api/notify';
import { exportUserData } from '../../../api/personal-data';
import { adminKeys } from '../../../api/query-keys';
import { reportError } from '../../../components/common/report-error';
import { ReasonField } from '../shared/ReasonField';
import { useAdminMutation } from '../shared/use-admin-mutation';

/** A copy of the person's data, downloaded with a reason the audit log keeps. */
function ExportDataForm({ user }: { user: AdminUserDetail }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const run = async ({ reason }: { reason: string }) => {
    setBusy(true);
    try {
      await exportUserData(user.id, reason.trim());
      toast('success', t('admin:personalData.exportDone', { name: user.username }));
      form.resetFields();
    } catch (error) {
      reportError(error, 'admin:personalData.exportFailed');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form form={form} layout="vertical" onFinish={run} data-testid="user-export-form">
      <p>{t('admin:personalData.exportHint')}</p>
      <ReasonField label={t('admin:personalData.reason')} testId="user-export-reason" />
      <Flex justify="end">
        <Button htmlType="submit" icon={<DownloadOutlined />} loading={busy} data-testid="user-export-submit">
          {t('admin:personalData.export')}
        </Button>
      </Flex>
    </Form>
  );
}

/** Erasure: a reason, and the username typed again so it is never one click away. */
function EraseAccountForm({ user }: { user: AdminUserDetail }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string; confirm: string }>();
  const erase = useAdminMutation({
    mutationFn: (reason: string) => call('eraseUser', { params: { id: user.id }, body: { reason } }),
    invalidates: [adminKeys.users],
    successText: (r) => t('admin:personalData.eraseDone', { conversations: r.conversations, files: r.files }),
    failureKey: 'admin:personalData.eraseFailed',
    onSuccess: () => form.resetFields(),
  });
  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={(values) => erase.mutate(values.reason.trim())}
      data-testid="user-erase-form"
    >
      <Alert type="error" showIcon title={t('admin:personalData.eraseHint')} style={{ marginBottom: 16 }} />
      <ReasonField label={t('admin:personalData.reason')} testId="user-erase-reason" />
      <Form.Item
        name="confirm"
        label={t('admin:personalData.eraseConfirm', { name: user.username })}
        rules={[
          {
            validator: (_, value: string | undefined) =>
              value === user.username
                ? Promise.resolve()
                : Promise.reject(new Error(t('admin:personalData.eraseConfirmMismatch'))),
          },
        ]}
      >
        <Input autoComplete="off" data-testid="user-erase-confirm" />
      </Form.Item>
      <Flex justify="end">
        <Button
          danger
          htmlType="submit"
          icon={<DeleteOutlined />}
          loading={erase.isPending}
          data-testid="user-erase-submit"
        >
          {t('admin:personalData.erase')}
        </Button>
      </Flex>
    </Form>
  );
}

/** The person's data: export a copy and erase the account, as far as the viewer's abilities go. */
export function UserDataTab({ user }: { user: AdminUserDetail }) {
  const { t } = useTranslation();
  return (
    <>
      {user.abilities['data.export'] && (
        <>
          <Divider titlePlacement="start">{t('admin:personalData.exportTitle')}</Divider>
          <ExportDataForm user={user} />
        </>
      )}
      {user.abilities.erase && (
        <>
          <Divider titlePlacement="start">{t('admin:personalData.eraseTitle')}</Divider>
          <EraseAccountForm user={user} />
        </>
      )}
    </>
  );
}
