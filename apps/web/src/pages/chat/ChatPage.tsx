import { AccessGuard } from '../../components/common/AccessGuard';
import { ChatWorkspace } from './ChatWorkspace';
import './chat-layout.css';
import './chat-input.css';
import './chat-messages.css';

/** Needs `chat.use`. */
export default function ChatPage() {
  return (
    <AccessGuard anyPermission={['chat.use']}>
      <ChatWorkspace />
    </AccessGuard>
  );
}
