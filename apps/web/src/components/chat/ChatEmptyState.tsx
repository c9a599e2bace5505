import { MessageOutlined, PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { AnnouncementCard } from './AnnouncementCard';

/** No conversation selected: welcome, a start button and the announcement when there is one. */
export function ChatWelcome({ announcement, onNew }: { announcement: string | null; onNew: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="chat-empty" data-testid="empty-state">
      <MessageOutlined className="chat-empty-icon" />
      <h3 className="chat-empty-title">{t('chat:empty.welcome')}</h3>
      <p className="chat-empty-text">{t('chat:empty.description')}</p>
      <Button type="primary" size="large" icon={<PlusOutlined />} onClick={onNew} data-testid="empty-new-chat">
        {t('chat:empty.start')}
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
