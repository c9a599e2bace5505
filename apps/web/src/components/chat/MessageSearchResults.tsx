import type { MessageSearchHit } from '@aiplatform/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Spin } from 'antd';
import { type MouseEvent, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { chatSearchApi, messageSearchKey } from '../../api/chat-search';
import { useDebouncedValue } from '../../pages/admin/shared/use-debounced-value';
import { searchQueryOf, searchesMessages, snippetParts } from './search-marks';
import './message-search.css';

/** Typing pauses this long before the server is asked. */
const SEARCH_DELAY_MS = 250;

interface MessageSearchResultsProps {
  /** The sidebar's search text as typed. */
  search: string;
  /** Opens a conversation the way the sidebar list does (closes the drawer on phones). */
  onOpen: (conversationId: string) => void;
}

/** Where a hit opens: its conversation, scrolled to the message. */
const hitAddress = (hit: MessageSearchHit) => ({
  pathname: '/chat',
  search: `?c=${encodeURIComponent(hit.conversation_id)}&message=${encodeURIComponent(hit.message_id)}`,
});

const opensElsewhere = (event: MouseEvent) =>
  event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;

/** The snippet with its hits in <mark>, built from the ranges (never as HTML). */
function Snippet({ hit }: { hit: MessageSearchHit }) {
  return (
    <span className="chat-msg-search-snippet" data-testid="message-search-snippet">
      {snippetParts(hit.snippet, hit.highlights).map((part, i) =>
        part.marked ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
      )}
    </span>
  );
}

/**
 * The "Messages" section under the title matches: the server's full-text hits in the text
 * of the user's messages, from two characters on, asked once typing pauses.
 */
export function MessageSearchResults({ search, onOpen }: MessageSearchResultsProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const headingId = useId();
  const typed = searchQueryOf(search);
  const q = useDebouncedValue(typed, SEARCH_DELAY_MS);
  const enabled = searchesMessages(q);
  const result = useQuery({
    queryKey: messageSearchKey(q),
    queryFn: ({ signal }) => chatSearchApi.search(q, signal),
    enabled,
    placeholderData: keepPreviousData,
  });
  if (!searchesMessages(typed)) return null;

  const open = (event: MouseEvent, hit: MessageSearchHit) => {
    if (opensElsewhere(event)) return;
    event.preventDefault();
    // The list's own selection first (it also closes the drawer), then the address with the message.
    onOpen(hit.conversation_id);
    void navigate(hitAddress(hit), { replace: true });
  };

  const waiting = typed !== q || result.isFetching;
  let status = null;
  if (result.isError && !waiting)
    status = (
      <div className="chat-msg-search-state" data-testid="message-search-error">
        <span>{t('chat:messageSearch.failed')}</span>
        <Button size="small" onClick={() => void result.refetch()}>
          {t('chat:retry')}
        </Button>
      </div>
    );
  else if (!result.data)
    status = (
      <div className="chat-msg-search-state">
        <Spin size="small" /> <span>{t('chat:messageSearch.searching')}</span>
      </div>
    );
  else if (result.data.items.length === 0 && !waiting)
    status = (
      <div className="chat-msg-search-state" data-testid="message-search-empty">
        {t('chat:messageSearch.empty')}
      </div>
    );

  const hits = result.isError ? [] : (result.data?.items ?? []);
  return (
    <section className="chat-msg-search" aria-labelledby={headingId} data-testid="message-search">
      <h3 id={headingId} className="chat-msg-search-heading">
        {t('chat:messageSearch.heading')}
      </h3>
      <div aria-live="polite" aria-busy={waiting}>
        {status}
      </div>
      {hits.length > 0 && (
        <ul className={`chat-msg-search-list${waiting ? ' is-stale' : ''}`} aria-labelledby={headingId}>
          {hits.map((hit) => (
            <li key={hit.message_id}>
              <Link
                to={hitAddress(hit)}
                className="chat-msg-search-hit"
                onClick={(event) => open(event, hit)}
                data-testid="message-search-hit"
                data-message-id={hit.message_id}
              >
                <span className="chat-msg-search-title">
                  {hit.conversation_title || t('chat:conversation.untitled')}
                </span>
                <span className="chat-msg-search-role">{t(`chat:messageSearch.role.${hit.role}`)}</span>
                <Snippet hit={hit} />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
