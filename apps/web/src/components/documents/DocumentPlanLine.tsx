import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { filesApi } from '../../api/documents';
import { documentKeys } from '../../api/document-keys';
import { formatNumber } from '../common/format';
import { planKey } from './document-attachments';
import './documents.css';

/**
 * Above the send button: whether the send will carry the documents whole or their most
 * relevant passages, and what the turn will cost with them. Asked again when the ready
 * documents or the model change; silent when the server cannot say.
 */
export function DocumentPlanLine({
  conversationId,
  readyFileIds,
  modelName,
  enabled,
}: {
  conversationId: string | null;
  readyFileIds: string[];
  modelName: string | undefined;
  /** Documents are ready, or knowledge bases are attached. */
  enabled: boolean;
}) {
  const { t, i18n } = useTranslation();
  const plan = useQuery({
    queryKey: documentKeys.plan(conversationId ?? '', readyFileIds, modelName),
    queryFn: ({ signal }) => filesApi.plan(conversationId ?? '', readyFileIds, modelName, signal),
    enabled: Boolean(conversationId) && enabled,
    staleTime: 30_000,
    retry: false,
  });
  const key = enabled ? planKey(plan.data) : null;
  if (!key || !plan.data) return null;
  return (
    <span className="document-plan" data-testid="document-plan" data-mode={plan.data.mode}>
      {t(key, { tokens: formatNumber(plan.data.document_tokens, i18n.language) })}
      {' · '}
      {t('chat:documents.plan.credits', { n: plan.data.credits })}
    </span>
  );
}
