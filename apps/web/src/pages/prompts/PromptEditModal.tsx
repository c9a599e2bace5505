import { PROMPT_LIMITS, type PromptScope, type PromptTemplate } from '@aiplatform/contracts';
import { Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../api/notify';
import { reportError } from '../../components/common/report-error';
import { usePromptChanges } from '../../components/prompts/use-prompts';
import { useAbilities } from '../../stores/abilities';
import { useAuthStore } from '../../stores/auth-store';
import { useGroupOptions } from '../admin/shared/use-group-options';

interface Values {
  title: string;
  content: string;
  scope: PromptScope;
  group_id?: number;
}

interface PromptEditModalProps {
  open: boolean;
  /** The template being edited; null makes a new one. */
  prompt: PromptTemplate | null;
  /** The scopes the person may create in (personal always). */
  scopes: readonly PromptScope[];
  onClose: () => void;
}

/** Makes a template, or saves a new version of one (its scope stays). */
export function PromptEditModal({ open, prompt, scopes, onClose }: PromptEditModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const { create, update } = usePromptChanges();
  const user = useAuthStore((s) => s.user);
  // Whoever keeps every group's templates picks the group (their own by default); a group administrator writes their group's.
  const picksGroup = useAbilities().actions['prompt.group.manage'] === 'all';
  const groups = useGroupOptions(open && picksGroup && !prompt);
  const scope = Form.useWatch('scope', form);

  const finish = async (values: Values) => {
    try {
      if (prompt) await update.mutateAsync({ id: prompt.id, body: { title: values.title, content: values.content } });
      else await create.mutateAsync(values);
      toast('success', t('chat:prompts.saved'));
      onClose();
    } catch (error) {
      reportError(error, 'chat:prompts.saveFailed');
    }
  };

  return (
    <Modal
      open={open}
      title={t(prompt ? 'chat:prompts.edit' : 'chat:prompts.create')}
      okText={t('chat:prompts.save')}
      cancelText={t('common:cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={create.isPending || update.isPending}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'prompt-edit-submit' }}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        name="prompt-edit"
        initialValues={
          prompt
            ? { title: prompt.title, content: prompt.content }
            : { scope: 'personal', group_id: user?.group_id ?? undefined }
        }
        onFinish={(values) => void finish(values)}
      >
        <Form.Item
          name="title"
          label={t('chat:prompts.titleLabel')}
          rules={[
            { required: true, whitespace: true, max: PROMPT_LIMITS.titleMax, message: t('validation:prompt.title') },
          ]}
        >
          <Input maxLength={PROMPT_LIMITS.titleMax} data-testid="prompt-edit-title" />
        </Form.Item>
        <Form.Item
          name="content"
          label={t('chat:prompts.contentLabel')}
          extra={t('chat:prompts.variablesHint', { example: `{{${t('chat:prompts.exampleName')}}}` })}
          rules={[
            {
              required: true,
              whitespace: true,
              max: PROMPT_LIMITS.contentMax,
              message: t('validation:prompt.content'),
            },
          ]}
        >
          <Input.TextArea
            autoSize={{ minRows: 4, maxRows: 12 }}
            maxLength={PROMPT_LIMITS.contentMax}
            data-testid="prompt-edit-content"
          />
        </Form.Item>
        {!prompt && scopes.length > 1 && (
          <Form.Item name="scope" label={t('chat:prompts.scopeLabel')}>
            <Select
              options={scopes.map((scope) => ({ value: scope, label: t(`chat:prompts.scope.${scope}`) }))}
              data-testid="prompt-edit-scope"
            />
          </Form.Item>
        )}
        {!prompt && picksGroup && scope === 'group' && (
          <Form.Item
            name="group_id"
            label={t('chat:prompts.groupLabel')}
            rules={[{ required: true, message: t('validation:prompt.group') }]}
          >
            <Select
              options={groups.options}
              loading={groups.loading}
              showSearch
              optionFilterProp="label"
              data-testid="prompt-edit-group"
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
