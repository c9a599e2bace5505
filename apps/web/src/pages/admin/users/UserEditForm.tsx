import { type AdminUser, LIMITS, PERMISSIONS, ROLES } from '@aiplatform/contracts';
import { Button, Checkbox, Flex, Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { toast } from '../../../api/notify';
import { useFormRules } from '../../../components/common/form-rules';
import { PERMISSION_LABEL_KEYS, ROLE_LABEL_KEYS } from '../../../components/common/labels';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { type UserEditValues, changedFields, editValuesOf } from './user-edit-body';

interface UserEditFormProps {
  user: AdminUser;
  canSetGroup: boolean;
  canSetRole: boolean;
  canSetPermissions: boolean;
  groupOptions: { value: number; label: string }[];
}

/** Edits the account; role, group and extra permissions appear only for those who may change them. */
export function UserEditForm({ user, canSetGroup, canSetRole, canSetPermissions, groupOptions }: UserEditFormProps) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<UserEditValues>();
  const update = useAdminMutation({
    mutationFn: (body: ReturnType<typeof changedFields>) => call('updateUser', { params: { id: user.id }, body }),
    invalidates: [adminKeys.users, adminKeys.groups],
    successText: (updated) => t('admin:edit.done', { name: updated.username }),
    failureKey: 'admin:edit.failed',
  });

  const submit = (values: UserEditValues) => {
    const body = changedFields(user, values);
    if (Object.keys(body).length === 0) {
      toast('info', t('admin:edit.nothingChanged'));
      return;
    }
    update.mutate(body);
  };

  return (
    <Form<UserEditValues>
      form={form}
      layout="vertical"
      initialValues={editValuesOf(user)}
      onFinish={submit}
      data-testid="user-edit-form"
    >
      <Form.Item name="username" label={t('admin:fields.username')} rules={rules.username}>
        <Input maxLength={LIMITS.usernameMax} data-testid="user-edit-username" />
      </Form.Item>
      <Form.Item name="email" label={t('admin:fields.email')} rules={rules.email}>
        <Input data-testid="user-edit-email" />
      </Form.Item>
      <Form.Item name="phone" label={t('admin:fields.phone')} rules={rules.phone}>
        <Input placeholder={t('admin:fields.optional')} data-testid="user-edit-phone" />
      </Form.Item>
      {canSetGroup && (
        <Form.Item name="group_id" label={t('admin:fields.group')}>
          <Select showSearch={{ optionFilterProp: 'label' }} options={groupOptions} data-testid="user-edit-group" />
        </Form.Item>
      )}
      {canSetGroup && (
        <Form.Item name="group_pinned" valuePropName="checked" extra={t('admin:edit.groupPinnedHint')}>
          <Checkbox data-testid="user-edit-group-pinned">{t('admin:fields.groupPinned')}</Checkbox>
        </Form.Item>
      )}
      {canSetRole && (
        <Form.Item name="role" label={t('admin:fields.role')}>
          <Select
            options={ROLES.map((role) => ({ value: role, label: t(ROLE_LABEL_KEYS[role]) }))}
            data-testid="user-edit-role"
          />
        </Form.Item>
      )}
      <Form.Item name="token_quota" label={t('admin:fields.tokenQuota')}>
        <InputNumber min={0} precision={0} style={{ width: '100%' }} data-testid="user-edit-token-quota" />
      </Form.Item>
      <Form.Item
        name="remark"
        label={t('admin:fields.remark')}
        rules={[{ max: 500, message: t('validation:remark.max') }]}
      >
        <Input.TextArea rows={2} maxLength={500} showCount data-testid="user-edit-remark" />
      </Form.Item>
      {canSetPermissions && (
        <Form.Item
          name="extra_permissions"
          label={t('admin:fields.extraPermissions')}
          extra={t('admin:edit.extraPermissionsHint')}
        >
          <Checkbox.Group
            options={PERMISSIONS.map((permission) => ({
              value: permission,
              label: t(PERMISSION_LABEL_KEYS[permission]),
            }))}
            data-testid="user-edit-permissions"
          />
        </Form.Item>
      )}
      <Flex justify="end">
        <Button type="primary" htmlType="submit" loading={update.isPending} data-testid="user-edit-submit">
          {t('admin:edit.submit')}
        </Button>
      </Flex>
    </Form>
  );
}
