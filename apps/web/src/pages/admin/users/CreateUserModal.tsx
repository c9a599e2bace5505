import { type CreateAdminUserBody, LIMITS, ROLES } from '@aiplatform/contracts';
import { Alert, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { useFormRules } from '../../../components/common/form-rules';
import { ROLE_LABEL_KEYS } from '../../../components/common/labels';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { useOverlaySize } from '../shared/use-overlay-size';
import { formatNumber } from '../../../components/common/format';
import { groupDisplayName } from '../../../components/common/group-name';
import { useAuthStore } from '../../../stores/auth-store';
import { type PoolGroup, openingCreditsSource } from './new-user-credits';

interface CreateUserModalProps {
  open: boolean;
  onClose: () => void;
  /** Only super administrators pick a role; others create plain users. */
  canSetRole: boolean;
  /** Only administrators of every group pick the group; a group administrator's users join their group. */
  canSetGroup: boolean;
  /** Only those who may adjust balances choose the opening credits. */
  canSetCredits: boolean;
  groupOptions: { value: number; label: string }[];
  /** The groups with their pools, to say where a new member's opening credits come from. */
  groups: readonly PoolGroup[];
}

interface CreateUserValues {
  username: string;
  email: string;
  password: string;
  phone?: string;
  role?: CreateAdminUserBody['role'];
  group_id?: number;
  credits_quota?: number | null;
  remark?: string;
}

/** What the form shows when it opens: nothing typed, a plain user, the site's opening credits. */
const EMPTY_USER: Partial<CreateUserValues> = { role: 'user', credits_quota: null };

function toBody(values: CreateUserValues): CreateAdminUserBody {
  return {
    username: values.username.trim(),
    email: values.email.trim(),
    password: values.password,
    phone: values.phone?.trim() || null,
    ...(values.role ? { role: values.role } : {}),
    ...(values.group_id ? { group_id: values.group_id } : {}),
    ...(values.credits_quota != null ? { credits_quota: values.credits_quota } : {}),
    ...(values.remark?.trim() ? { remark: values.remark.trim() } : {}),
  };
}

/** "Add user": the account's sign-in fields, and for those allowed its role, group and opening credits. */
export function CreateUserModal({
  open,
  onClose,
  canSetRole,
  canSetGroup,
  canSetCredits,
  groupOptions,
  groups,
}: CreateUserModalProps) {
  const { t, i18n } = useTranslation();
  const rules = useFormRules();
  const { modalWidth } = useOverlaySize(560);
  const [form] = Form.useForm<CreateUserValues>();
  const ownGroupId = useAuthStore((s) => s.user?.group_id ?? null);
  const source = openingCreditsSource(groups, Form.useWatch('group_id', form), ownGroupId, {
    setGroup: canSetGroup,
    setCredits: canSetCredits,
  });
  const create = useAdminMutation({
    mutationFn: (body: CreateAdminUserBody) => call('createUser', { body }),
    invalidates: [adminKeys.users, adminKeys.groups],
    successText: (user) => t('admin:create.done', { name: user.username }),
    failureKey: 'admin:create.failed',
    onSuccess: () => {
      form.resetFields();
      onClose();
    },
  });
  // Every opening starts empty: a role left over from the previous entry would silently make
  // the next account an administrator too.
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  return (
    <Modal
      open={open}
      title={t('admin:create.title')}
      okText={t('admin:create.submit')}
      cancelText={t('common:cancel')}
      confirmLoading={create.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      width={modalWidth}
      forceRender
      okButtonProps={{ 'data-testid': 'user-create-submit' }}
      data-testid="user-create-modal"
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={EMPTY_USER}
        onFinish={(values) => create.mutate(toBody(values))}
      >
        <Form.Item name="username" label={t('admin:fields.username')} rules={rules.username}>
          <Input autoComplete="off" maxLength={LIMITS.usernameMax} data-testid="user-create-username" />
        </Form.Item>
        <Form.Item name="email" label={t('admin:fields.email')} rules={rules.email}>
          <Input autoComplete="off" data-testid="user-create-email" />
        </Form.Item>
        <Form.Item name="password" label={t('admin:fields.password')} rules={rules.newPassword}>
          <Input.Password autoComplete="new-password" data-testid="user-create-password" />
        </Form.Item>
        <Form.Item name="phone" label={t('admin:fields.phone')} rules={rules.phone}>
          <Input placeholder={t('admin:fields.optional')} data-testid="user-create-phone" />
        </Form.Item>
        {canSetRole && (
          <Form.Item name="role" label={t('admin:fields.role')}>
            <Select
              options={ROLES.map((role) => ({ value: role, label: t(ROLE_LABEL_KEYS[role]) }))}
              data-testid="user-create-role"
            />
          </Form.Item>
        )}
        {canSetGroup && (
          <Form.Item name="group_id" label={t('admin:fields.group')} extra={t('admin:create.groupHint')}>
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              options={groupOptions}
              data-testid="user-create-group"
            />
          </Form.Item>
        )}
        {canSetCredits && (
          <Form.Item name="credits_quota" label={t('admin:fields.creditsQuota')} extra={t('admin:create.creditsHint')}>
            <InputNumber min={0} precision={0} style={{ width: '100%' }} data-testid="user-create-credits" />
          </Form.Item>
        )}
        {source?.kind === 'pool' && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('admin:create.poolNote', {
              group: groupDisplayName(source.group.name, t, source.group.id),
              remaining: formatNumber(source.group.credits_pool_remaining, i18n.language),
            })}
            data-testid="user-create-pool-note"
          />
        )}
        {source?.kind === 'none' && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('admin:create.noCreditsNote')}
            data-testid="user-create-no-credits-note"
          />
        )}
        <Form.Item
          name="remark"
          label={t('admin:fields.remark')}
          rules={[{ max: 500, message: t('validation:remark.max') }]}
        >
          <Input.TextArea rows={2} maxLength={500} showCount data-testid="user-create-remark" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
