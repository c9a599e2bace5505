import { Form, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useOverlaySize } from '../shared/use-overlay-size';

interface MoveUsersModalProps {
  open: boolean;
  count: number;
  groupOptions: { value: number; label: string }[];
  submitting: boolean;
  onSubmit: (groupId: number) => void;
  onClose: () => void;
}

/** Picks the target group of a bulk move; confirming the modal is the confirmation. */
export function MoveUsersModal({ open, count, groupOptions, submitting, onSubmit, onClose }: MoveUsersModalProps) {
  const { t } = useTranslation();
  const { modalWidth } = useOverlaySize(440);
  const [form] = Form.useForm<{ group_id: number }>();
  return (
    <Modal
      open={open}
      title={t('admin:bulk.moveTitle', { count })}
      okText={t('admin:bulk.move')}
      cancelText={t('common:cancel')}
      confirmLoading={submitting}
      onOk={() => form.submit()}
      onCancel={onClose}
      width={modalWidth}
      destroyOnHidden
      forceRender
      data-testid="bulk-move-modal"
    >
      <Form form={form} layout="vertical" onFinish={(values) => onSubmit(values.group_id)} preserve={false}>
        <Form.Item
          name="group_id"
          label={t('admin:bulk.targetGroup')}
          rules={[{ required: true, message: t('validation:group.required') }]}
        >
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            options={groupOptions}
            placeholder={t('admin:bulk.targetGroupPlaceholder')}
            data-testid="bulk-move-group"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
