import { AccessGuard } from '../../components/common/AccessGuard';
import { TextViewerProvider } from '../../components/documents/TextViewerProvider';
import { ChatWorkspace } from './ChatWorkspace';
import './chat-layout.css';
import './chat-input.css';
import './chat-messages.css';

/**
 * Open to those the server lets chat. The workspace names the browser tab (the open conversation's title);
 * documents' text opens in one drawer for the whole screen.
 */
export default function ChatPage() {
  return (
    <AccessGuard page="chat">
      <TextViewerProvider>
        <ChatWorkspace />
      </TextViewerProvider>
    </AccessGuard>
  );
}
