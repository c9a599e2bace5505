import type { SharedMessage } from '@aiplatform/contracts';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { MarkdownContent } from '../../components/chat/MarkdownContent';
import { formatDateTime } from '../../components/common/format';

/** A passage an answer was given: its document's name, page and text (the document itself is not shared). */
function SharedCitations({ message }: { message: SharedMessage }) {
  const { t } = useTranslation();
  if (message.citations.length === 0) return null;
  return (
    <div className="message-citations share-citations">
      <div className="message-citations-title">{t('share:page.citations')}</div>
      <ol>
        {message.citations.map((c, index) => (
          <li key={index}>
            <span className="message-citation-source">
              {c.name}
              {c.page !== null && ` · ${t('share:page.page', { page: c.page })}`}
            </span>
            {c.snippet && <span className="message-citation-snippet">{c.snippet}</span>}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** One message of a shared conversation, drawn with the chat's own markdown renderer. */
export const SharedMessageItem = memo(function SharedMessageItem({ message }: { message: SharedMessage }) {
  const { t, i18n } = useTranslation();
  const isUser = message.role === 'user';
  return (
    <article
      className={`chat-message chat-message-${message.role}`}
      data-testid="share-message"
      data-role={message.role}
    >
      <div className="chat-message-body">
        <div className="chat-message-meta">
          <span>{isUser ? t('share:page.you') : message.model_display_name || t('share:page.assistant')}</span>
          <span>{formatDateTime(message.created_at, i18n.language)}</span>
        </div>
        <div className="chat-bubble">
          {isUser ? (
            <div className="chat-user-text">{message.content}</div>
          ) : (
            <MarkdownContent text={message.content} />
          )}
          {message.stopped && <div className="chat-stopped">{t('share:page.stopped')}</div>}
          {message.files_omitted > 0 && (
            <div className="share-files-omitted" data-testid="share-files-omitted">
              {t('share:page.filesOmitted', { count: message.files_omitted })}
            </div>
          )}
          <SharedCitations message={message} />
        </div>
      </div>
    </article>
  );
});
