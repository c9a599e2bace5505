import { type CreateGroupBody, type Group, PERMISSIONS } from '@aiplatform/contracts';
import { Checkbox, Flex, Form, Input, InputNumber, Modal, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { PERMISSION_LABEL_KEYS } from '../../../components/common/labels';
import { useAdminAccess } from '../shared/use-admin-access';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { useOverlaySize } from '../shared/use-overlay-size';
import { type GroupFormValues, formValuesOf, groupBodyOf } from './group-form-values';

interface GroupFormModalProps {
  /** The group to edit; null creates a new one. */
  group: Group | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}

/** Create or edit a group: name, description, colour, order, status, member limit and granted permissions. */
export function GroupFormModal({ group, open, onClose, afterClose }: GroupFormModalProps) {
  const { t } = useTranslation();
  const { modalWidth } = useOverlaySize(520);
  const [form] = Form.useForm<GroupFormValues>();
  const unlimited = Form.useWatch('unlimited', form) ?? true;
  // Granting permissions to a whole group is for whoever may grant them (the server's word).
  const access = useAdminAccess();
  const canGrant = group ? group.abilities.permissions : access.can('group.permissions');
  const save = useAdminMutation({
    mutationFn: (body: CreateGroupBody) =>
      group ? call('updateGroup', { params: { id: group.id }, body }) : call('createGroup', { body }),
    invalidates: [adminKeys.groups, adminKeys.users],
    successText: (saved) =>
      group ? t('admin:groups.updatedDone', { name: saved.name }) : t('admin:groups.createdDone', { name: saved.name }),
    failureKey: group ? 'admin:groups.updateFailed' : 'admin:groups.createFailed',
    onSuccess: onClose,
  });

  return (
    <Modal
      open={open}
      title={group ? t('admin:groups.editTitle', { name: group.name }) : t('admin:groups.createTitle')}
      okText={t('admin:actions.save')}
      cancelText={t('common:cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      afterClose={afterClose}
      width={modalWidth}
      destroyOnHidden
      forceRender
      okButtonProps={{ 'data-testid': 'group-form-submit' }}
      data-testid="group-form-modal"
    >
      <Form<GroupFormValues>
        key={group?.id ?? 'new'}
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={formValuesOf(group)}
        onFinish={(values) => save.mutate(groupBodyOf(values, canGrant))}
      >
        <Form.Item
          name="name"
          label={t('admin:groups.fields.name')}
          rules={[
            { required: true, whitespace: true, message: t('validation:groupName.required') },
            { max: 100, message: t('validation:groupName.max') },
          ]}
        >
          <Input maxLength={100} data-testid="group-form-name" />
        </Form.Item>
        <Form.Item
          name="description"
          label={t('admin:groups.fields.description')}
          rules={[{ max: 500, message: t('validation:description.max') }]}
        >
          <Input.TextArea rows={2} maxLength={500} showCount data-testid="group-form-description" />
        </Form.Item>
        <Flex gap={16} wrap>
          {/* The browser's own colour input: antd's ColorPicker would pull its code into the login bundle. */}
          <Form.Item name="color" label={t('admin:groups.fields.color')}>
            <Input type="color" style={{ width: 72, padding: 2 }} data-testid="group-form-color" />
          </Form.Item>
          <Form.Item name="sort_order" label={t('admin:groups.fields.sortOrder')}>
            <InputNumber min={0} max={100_000} precision={0} data-testid="group-form-sort" />
          </Form.Item>
          <Form.Item name="active" label={t('admin:groups.fields.status')} valuePropName="checked">
            <Switch
              checkedChildren={t('admin:status.active')}
              unCheckedChildren={t('admin:status.inactive')}
              data-testid="group-form-status"
            />
          </Form.Item>
        </Flex>
        <Flex gap={16} wrap align="start">
          <Form.Item name="unlimited" label={t('admin:groups.fields.unlimited')} valuePropName="checked">
            <Switch data-testid="group-form-unlimited" />
          </Form.Item>
          {!unlimited && (
            <Form.Item
              name="user_limit"
              label={t('admin:groups.fields.userLimit')}
              rules={[{ required: true, message: t('validation:userLimit.invalid') }]}
            >
              <InputNumber min={1} max={1_000_000} precision={0} data-testid="group-form-user-limit" />
            </Form.Item>
          )}
        </Flex>
        <Form.Item
          name="retention_days"
          label={t('admin:groups.fields.retentionDays')}
          extra={t('admin:groups.fields.retentionDaysHint')}
        >
          <InputNumber<number>
            min={1}
            max={36_500}
            precision={0}
            placeholder={t('admin:groups.fields.retentionSite')}
            style={{ width: 200 }}
            data-testid="group-form-retention-days"
          />
        </Form.Item>
        {canGrant && (
          <Form.Item
            name="permissions"
            label={t('admin:groups.fields.permissions')}
            extra={t('admin:groups.permissionsHint')}
          >
            <Checkbox.Group
              options={PERMISSIONS.map((permission) => ({
                value: permission,
                label: t(PERMISSION_LABEL_KEYS[permission]),
              }))}
              data-testid="group-form-permissions"
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
