import type { KnowledgeBase, UpdateKnowledgeBaseBody } from '@aiplatform/contracts';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../api/notify';
import { reportError } from '../../components/common/report-error';
import { useKnowledgeChanges } from './use-knowledge';

/** Renames a knowledge base or changes its description (its scope stays). */
export function KnowledgeEditModal({ kb, onClose }: { kb: KnowledgeBase | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<UpdateKnowledgeBaseBody>();
  const { update } = useKnowledgeChanges();

  const finish = async (values: UpdateKnowledgeBaseBody) => {
    if (!kb) return;
    try {
      await update.mutateAsync({ id: kb.id, body: values });
      toast('success', t('chat:knowledge.saved'));
      onClose();
    } catch (error) {
      reportError(error, 'chat:knowledge.saveFailed');
    }
  };

  return (
    <Modal
      open={kb !== null}
      title={t('chat:knowledge.edit')}
      okText={t('chat:knowledge.save')}
      cancelText={t('common:cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={update.isPending}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'kb-edit-submit' }}
    >
      {kb && (
        <Form<UpdateKnowledgeBaseBody>
          form={form}
          layout="vertical"
          name="knowledge-edit"
          initialValues={{ name: kb.name, description: kb.description }}
          onFinish={(values) => void finish(values)}
        >
          <Form.Item
            name="name"
            label={t('chat:knowledge.name')}
            rules={[{ required: true, whitespace: true, max: 100, message: t('validation:knowledgeBase.name') }]}
          >
            <Input maxLength={100} data-testid="kb-edit-name" />
          </Form.Item>
          <Form.Item
            name="description"
            label={t('chat:knowledge.description')}
            rules={[{ max: 1000, message: t('validation:knowledgeBase.description') }]}
          >
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={1000} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
