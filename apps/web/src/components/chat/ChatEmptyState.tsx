import { MessageOutlined, SettingOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { AnnouncementCard } from './AnnouncementCard';

/**
 * The new chat before its first message: welcome, the announcement when there is one, and the
 * optional settings. The composer below starts the chat; nothing has to be filled in first.
 */
export function ChatWelcome({ announcement, onSettings }: { announcement: string | null; onSettings: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="chat-empty" data-testid="empty-state">
      <MessageOutlined className="chat-empty-icon" />
      <h3 className="chat-empty-title">{t('chat:empty.welcome')}</h3>
      <p className="chat-empty-text">{t('chat:empty.description')}</p>
      <Button icon={<SettingOutlined />} onClick={onSettings} data-testid="welcome-settings">
        {t('chat:empty.settings')}
      </Button>
      <AnnouncementCard content={announcement} />
    </div>
  );
}

/** A conversation without messages: the announcement when there is one and a start-chat prompt. */
export function ChatStart({ announcement }: { announcement: string | null }) {
  const { t } = useTranslation();
  return (
    <div className="chat-empty chat-empty-conversation" data-testid="empty-conversation">
      <AnnouncementCard content={announcement} />
      <MessageOutlined className="chat-empty-icon" />
      <p className="chat-empty-text">{t('chat:empty.startChat')}</p>
    </div>
  );
}
