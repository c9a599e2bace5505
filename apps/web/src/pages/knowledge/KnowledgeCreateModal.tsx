import type { CreateKnowledgeBaseBody, KnowledgeBase } from '@aiplatform/contracts';
import { Form, Input, Modal, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { reportError } from '../../components/common/report-error';
import { useAuthStore } from '../../stores/auth-store';
import { useGroupOptions } from '../admin/shared/use-group-options';
import { SCOPE_LABELS, creatableScopes } from './knowledge-scope';
import { useKnowledgeChanges } from './use-knowledge';

/** Name, description and, for those who curate a group's, whether it is personal or the group's. */
export function KnowledgeCreateModal({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (kb: KnowledgeBase) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CreateKnowledgeBaseBody>();
  const user = useAuthStore((s) => s.user);
  const scopes = creatableScopes(user);
  // A super administrator picks the group (theirs by default); a group administrator makes their own group's.
  const picksGroup = user?.role === 'super_admin';
  const groups = useGroupOptions(open && picksGroup);
  const scope = Form.useWatch('scope', form);
  const { create } = useKnowledgeChanges();

  const finish = async (values: CreateKnowledgeBaseBody) => {
    try {
      const kb = await create.mutateAsync(values);
      form.resetFields();
      onCreated(kb);
    } catch (error) {
      reportError(error, 'chat:knowledge.createFailed');
    }
  };

  return (
    <Modal
      open={open}
      title={t('chat:knowledge.create')}
      okText={t('chat:knowledge.createOk')}
      cancelText={t('common:cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={create.isPending}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'kb-create-submit' }}
    >
      <Form<CreateKnowledgeBaseBody>
        form={form}
        layout="vertical"
        name="knowledge-create"
        initialValues={{ name: '', description: '', scope: 'personal', group_id: user?.group_id ?? undefined }}
        onFinish={(values) => void finish(values)}
      >
        <Form.Item
          name="name"
          label={t('chat:knowledge.name')}
          rules={[{ required: true, whitespace: true, max: 100, message: t('validation:knowledgeBase.name') }]}
        >
          <Input maxLength={100} data-testid="kb-name" />
        </Form.Item>
        <Form.Item
          name="description"
          label={t('chat:knowledge.description')}
          rules={[{ max: 1000, message: t('validation:knowledgeBase.description') }]}
        >
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={1000} data-testid="kb-description" />
        </Form.Item>
        {scopes.length > 1 && (
          <Form.Item name="scope" label={t('chat:knowledge.scope')}>
            <Radio.Group
              options={scopes.map((scope) => ({ value: scope, label: t(SCOPE_LABELS[scope]) }))}
              data-testid="kb-scope"
            />
          </Form.Item>
        )}
        {picksGroup && scope === 'group' && (
          <Form.Item
            name="group_id"
            label={t('chat:knowledge.group')}
            rules={[{ required: true, message: t('chat:knowledge.groupRequired') }]}
          >
            <Select
              options={groups.options}
              loading={groups.loading}
              showSearch
              optionFilterProp="label"
              data-testid="kb-group"
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
