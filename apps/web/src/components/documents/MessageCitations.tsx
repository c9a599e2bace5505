import type { Citation } from '@aiplatform/contracts';
import { useTranslation } from 'react-i18next';
import { useOpenText } from './TextViewerProvider';
import './documents.css';

/** The passages an answer was given: file, page and the passage's start; each opens the page with it marked. */
export function MessageCitations({ citations }: { citations: readonly Citation[] | undefined }) {
  const { t } = useTranslation();
  const openText = useOpenText();
  if (!citations || citations.length === 0) return null;
  return (
    <nav className="message-citations" aria-label={t('chat:citations.title')} data-testid="message-citations">
      <div className="message-citations-title">{t('chat:citations.title')}</div>
      <ol>
        {citations.map((citation, index) => (
          <li key={`${citation.file_id}-${citation.page ?? 'all'}-${index}`}>
            <button
              type="button"
              className="message-citation"
              onClick={() =>
                openText({
                  fileId: citation.file_id,
                  name: citation.name,
                  page: citation.page,
                  snippet: citation.snippet,
                })
              }
              data-testid="message-citation"
              data-page={citation.page ?? ''}
            >
              <span className="message-citation-source">
                {citation.name}
                {citation.page !== null && ` · ${t('chat:citations.page', { page: citation.page })}`}
              </span>
              {citation.snippet && <span className="message-citation-snippet">{citation.snippet}</span>}
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
