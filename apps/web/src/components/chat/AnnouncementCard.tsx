import { NotificationOutlined } from '@ant-design/icons';
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { MarkdownContent } from './MarkdownContent';

/** The system announcement (markdown, never raw HTML); nothing at all when there is none. */
export function AnnouncementCard({ content }: { content: string | null }) {
  const { t } = useTranslation();
  if (!content) return null;
  return (
    <Card
      size="small"
      className="chat-announcement"
      title={
        <span>
          <NotificationOutlined /> {t('chat:empty.announcement')}
        </span>
      }
      data-testid="chat-announcement"
    >
      <MarkdownContent text={content} />
    </Card>
  );
}
