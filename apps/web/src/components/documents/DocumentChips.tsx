import type { FileInfo, MessageFile } from '@aiplatform/contracts';
import { ExclamationCircleOutlined, FileTextOutlined, LoadingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../common/format';
import { RemoveButton } from '../common/RemoveButton';
import { type ChipState, chipState } from './document-attachments';
import './documents.css';

/** The line under a chip's name: reading, its size once read, or why it failed. */
function ChipDetail({ state }: { state: ChipState }) {
  const { t, i18n } = useTranslation();
  if (state.phase === 'processing') return <>{t('chat:documents.processing')}</>;
  if (state.phase === 'failed') return <>{t(state.errorKey)}</>;
  const tokens = formatNumber(state.tokens ?? 0, i18n.language);
  return (
    <>
      {state.pages !== null
        ? t('chat:documents.readyPages', { pages: state.pages, tokens })
        : t('chat:documents.readyTokens', { tokens })}
    </>
  );
}

const ICONS = {
  processing: <LoadingOutlined aria-hidden />,
  ready: <FileTextOutlined aria-hidden />,
  failed: <ExclamationCircleOutlined aria-hidden />,
} as const;

/**
 * The documents attached in the composer: one chip each, showing it being read, ready (its
 * pages and tokens; a click opens its text) or failed with the reason; each can be removed.
 */
export function DocumentChips({
  documents,
  infos,
  onRemove,
  onOpen,
}: {
  documents: MessageFile[];
  infos: ReadonlyMap<string, FileInfo>;
  onRemove: (id: string) => void;
  onOpen: (file: MessageFile) => void;
}) {
  const { t } = useTranslation();
  if (documents.length === 0) return null;
  return (
    <ul className="document-chips" aria-label={t('chat:documents.attached')} data-testid="document-chips">
      {documents.map((file) => {
        const state = chipState(infos.get(file.id));
        const remove = t('chat:documents.removeNamed', { name: file.original_name });
        const body = (
          <>
            <span className="document-chip-icon">{ICONS[state.phase]}</span>
            <span className="document-chip-text">
              <span className="document-chip-name" title={file.original_name}>
                {file.original_name}
              </span>
              <span className="document-chip-detail" data-testid="document-chip-detail">
                <ChipDetail state={state} />
              </span>
            </span>
          </>
        );
        return (
          <li
            key={file.id}
            className={`document-chip is-${state.phase}`}
            data-testid="document-chip"
            data-status={state.phase}
          >
            {state.phase === 'ready' ? (
              <button
                type="button"
                className="document-chip-open"
                onClick={() => onOpen(file)}
                aria-label={t('chat:documents.previewNamed', { name: file.original_name })}
                data-testid="document-chip-open"
              >
                {body}
              </button>
            ) : (
              <span className="document-chip-open" role={state.phase === 'failed' ? 'alert' : undefined}>
                {body}
              </span>
            )}
            <RemoveButton label={remove} onRemove={() => onRemove(file.id)} testId="document-remove" />
          </li>
        );
      })}
    </ul>
  );
}
