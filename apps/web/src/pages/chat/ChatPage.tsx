import { useTranslation } from 'react-i18next';
import { AccessGuard } from '../../components/common/AccessGuard';
import { useDocumentTitle } from '../../components/common/use-document-title';
import { ChatWorkspace } from './ChatWorkspace';
import './chat-layout.css';
import './chat-input.css';
import './chat-messages.css';

/** Needs `chat.use`. */
export default function ChatPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('layout:menu.chat'));
  return (
    <AccessGuard anyPermission={['chat.use']}>
      <ChatWorkspace />
    </AccessGuard>
  );
}
