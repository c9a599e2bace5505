import { MenuFoldOutlined, MenuUnfoldOutlined, PictureOutlined } from '@ant-design/icons';
import { Button, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

interface ChatHeaderProps {
  title: string;
  /** Display name of the conversation's model; absent when nothing is selected. */
  modelLabel?: string;
  supportsImage: boolean;
  sidebarVisible: boolean;
  onToggleSidebar: () => void;
}

/** Title, model tag and the 'supports image' tag above the messages, with the sidebar toggle. */
export function ChatHeader({ title, modelLabel, supportsImage, sidebarVisible, onToggleSidebar }: ChatHeaderProps) {
  const { t } = useTranslation();
  const toggleLabel = sidebarVisible ? t('chat:sidebar.hide') : t('chat:sidebar.show');
  return (
    <div className="chat-header">
      <Tooltip title={toggleLabel}>
        <Button
          type="text"
          icon={sidebarVisible ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
          onClick={onToggleSidebar}
          aria-label={toggleLabel}
          data-testid="chat-sidebar-toggle"
        />
      </Tooltip>
      <h2 className="chat-header-title" title={title} data-testid="chat-header-title">
        {title}
      </h2>
      {modelLabel && (
        <Tag color="blue" className="chat-header-tag" data-testid="chat-model-tag">
          {modelLabel}
        </Tag>
      )}
      {supportsImage && (
        <Tag icon={<PictureOutlined />} color="success" className="chat-header-tag" data-testid="chat-image-tag">
          {t('chat:header.supportsImage')}
        </Tag>
      )}
    </div>
  );
}
