import type { KnowledgeBase } from '@aiplatform/contracts';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../api/notify';
import { reportError } from '../../components/common/report-error';
import { DangerButton } from '../admin/shared/DangerButton';
import { KnowledgeEditModal } from './KnowledgeEditModal';
import { useKnowledgeChanges } from './use-knowledge';

/** Edit and delete, each offered only when the server says the person may. */
export function KnowledgeActions({ kb, onDeleted }: { kb: KnowledgeBase; onDeleted?: () => void }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const { remove } = useKnowledgeChanges();
  if (!kb.abilities.update && !kb.abilities.delete) return null;

  const destroy = async () => {
    try {
      await remove.mutateAsync(kb.id);
      toast('success', t('chat:knowledge.deleted'));
      onDeleted?.();
    } catch (error) {
      reportError(error, 'chat:knowledge.deleteFailed');
    }
  };

  return (
    <Space size={8} wrap>
      {kb.abilities.update && (
        <Button
          size="small"
          icon={<EditOutlined />}
          onClick={() => setEditing(true)}
          aria-label={t('chat:knowledge.editNamed', { name: kb.name })}
          data-testid="kb-edit"
        >
          {t('chat:knowledge.edit')}
        </Button>
      )}
      {kb.abilities.delete && (
        <DangerButton
          title={t('chat:knowledge.deleteTitle', { name: kb.name })}
          hint={t('chat:knowledge.deleteHint')}
          label={t('chat:knowledge.delete')}
          icon={<DeleteOutlined />}
          onConfirm={destroy}
          testId="kb-delete"
        />
      )}
      <KnowledgeEditModal kb={editing ? kb : null} onClose={() => setEditing(false)} />
    </Space>
  );
}
