import {
  BookOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  PictureOutlined,
  PlusOutlined,
  SettingOutlined,
  ShareAltOutlined,
} from '@ant-design/icons';
import { Button, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

interface ChatHeaderProps {
  title: string;
  /** Display name of the conversation's model; absent when nothing is selected. */
  modelLabel?: string;
  supportsImage: boolean;
  /** How many knowledge bases the conversation searches; the tag opens the settings to change them. */
  knowledgeBases: number;
  sidebarVisible: boolean;
  onToggleSidebar: () => void;
  /** Opens a new chat. */
  onNew: () => void;
  /** Opens the settings of the open conversation or of the new chat. */
  onSettings: () => void;
  /** Opens the share dialog; absent while no stored conversation is open. */
  onShare?: () => void;
}

/**
 * Title, model tag, the 'supports image' tag and the knowledge bases searched above the messages, with the sidebar toggle and
 * the settings button (the open conversation's, or the new chat's before its first message).
 * While the sidebar (and its "new chat" button) is not on screen — always on phones, where it
 * is a drawer — a compact "new chat" button sits at the end.
 */
export function ChatHeader({
  title,
  modelLabel,
  supportsImage,
  knowledgeBases,
  sidebarVisible,
  onToggleSidebar,
  onNew,
  onSettings,
  onShare,
}: ChatHeaderProps) {
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
      {knowledgeBases > 0 && (
        <Tag icon={<BookOutlined />} color="purple" className="chat-header-tag" data-testid="chat-knowledge-tag">
          {t('chat:header.knowledgeBases', { n: knowledgeBases })}
        </Tag>
      )}
      {onShare && (
        <Tooltip title={t('share:action')}>
          <Button
            type="text"
            icon={<ShareAltOutlined />}
            onClick={onShare}
            aria-label={t('share:action')}
            data-testid="chat-header-share"
          />
        </Tooltip>
      )}
      <Tooltip title={t('chat:header.settings')}>
        <Button
          className="chat-header-settings"
          type="text"
          icon={<SettingOutlined />}
          onClick={onSettings}
          aria-label={t('chat:header.settings')}
          data-testid="chat-header-settings"
        />
      </Tooltip>
      {!sidebarVisible && (
        <Tooltip title={t('chat:sidebar.newChat')}>
          <Button
            className="chat-header-new"
            type="text"
            icon={<PlusOutlined />}
            onClick={onNew}
            aria-label={t('chat:sidebar.newChat')}
            data-testid="chat-header-new"
          />
        </Tooltip>
      )}
    </div>
  );
}
