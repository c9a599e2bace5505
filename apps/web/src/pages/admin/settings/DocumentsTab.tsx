import { type AdminSettings, DOCUMENT_LIMITS } from '@aiplatform/contracts';
import { Form, InputNumber, Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminModels } from '../models/model-queries';
import { SettingsSection } from './SettingsSection';
import { SettingsTabForm } from './SettingsTabForm';

/** The embedding models as options, none first; a stored name that is no longer one stays, marked. */
function useEmbeddingOptions(current: string) {
  const { t } = useTranslation();
  const query = useAdminModels();
  const options = useMemo(() => {
    const list = [
      { value: '', label: t('settings:documents.embeddingNone') },
      ...(query.data ?? [])
        .filter((model) => model.kind === 'embedding')
        .map((model) => ({
          value: model.name,
          label:
            model.display_name && model.display_name !== model.name
              ? `${model.display_name} (${model.name})`
              : model.name,
        })),
    ];
    if (current && !list.some((option) => option.value === current))
      list.push({ value: current, label: t('settings:documents.embeddingMissing', { name: current }) });
    return list;
  }, [query.data, current, t]);
  return { options, loading: query.isLoading };
}

/** How large a document may be, when documents go whole, and the model that indexes knowledge. */
export function DocumentsTab({ settings, readOnly }: { settings: AdminSettings; readOnly: boolean }) {
  const { t } = useTranslation();
  const embedding = useEmbeddingOptions(settings.knowledge.embedding_model);
  return (
    <SettingsTabForm tab="documents" settings={settings} readOnly={readOnly}>
      <SettingsSection title={t('settings:documents.section')}>
        <Form.Item
          name={['files', 'max_document_mb']}
          label={t('settings:documents.maxDocumentMb')}
          extra={t('settings:documents.maxDocumentMbHint')}
        >
          <InputNumber<number>
            min={1}
            max={DOCUMENT_LIMITS.maxDocumentMbMax}
            precision={0}
            suffix="MB"
            style={{ width: '100%' }}
            data-testid="settings-files-max-mb"
          />
        </Form.Item>
        <Form.Item
          name={['files', 'full_context_share']}
          label={t('settings:documents.fullContextShare')}
          extra={t('settings:documents.fullContextShareHint')}
        >
          <InputNumber<number>
            min={0}
            max={1}
            step={0.05}
            precision={2}
            style={{ width: '100%' }}
            data-testid="settings-files-share"
          />
        </Form.Item>
      </SettingsSection>
      <SettingsSection title={t('settings:documents.knowledgeSection')}>
        <Form.Item
          name={['knowledge', 'embedding_model']}
          label={t('settings:documents.embeddingModel')}
          extra={t('settings:documents.embeddingModelHint')}
        >
          <Select options={embedding.options} loading={embedding.loading} data-testid="settings-embedding-model" />
        </Form.Item>
      </SettingsSection>
    </SettingsTabForm>
  );
}
