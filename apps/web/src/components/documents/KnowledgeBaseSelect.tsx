import { DOCUMENT_LIMITS } from '@aiplatform/contracts';
import { useQuery } from '@tanstack/react-query';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { knowledgeApi } from '../../api/documents';
import { documentKeys } from '../../api/document-keys';

/** The knowledge bases a conversation searches on every turn: any the person may read. */
export function KnowledgeBaseSelect({
  value,
  onChange,
  id,
  testId,
}: {
  value?: number[];
  onChange?: (ids: number[]) => void;
  id?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const list = useQuery({ queryKey: documentKeys.knowledgeList, queryFn: knowledgeApi.list });
  const options = (list.data ?? []).map((kb) => ({
    value: kb.id,
    // A plain text label: the list screen readers hear names the option by it.
    label: kb.name,
  }));
  return (
    <Select<number[]>
      id={id}
      mode="multiple"
      value={value ?? []}
      onChange={(ids) => onChange?.(ids)}
      options={options}
      loading={list.isPending}
      maxCount={DOCUMENT_LIMITS.maxKnowledgeBasesPerConversation}
      placeholder={t('chat:knowledge.selectPlaceholder')}
      optionFilterProp="label"
      notFoundContent={
        <span>
          {t('chat:knowledge.noneToSelect')} <Link to="/knowledge">{t('chat:knowledge.manage')}</Link>
        </span>
      }
      data-testid={testId}
    />
  );
}

/** The form field of a conversation's knowledge bases, in its settings and in the new chat's. */
export function KnowledgeBaseField({ testId }: { testId: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="knowledge_base_ids"
      label={t('chat:knowledge.conversationLabel')}
      extra={t('chat:knowledge.conversationHint')}
    >
      <KnowledgeBaseSelect testId={testId} />
    </Form.Item>
  );
}
