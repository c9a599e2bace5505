import type { Conversation } from '@aiplatform/contracts';
import { DeleteOutlined, EditOutlined, MoreOutlined, PushpinOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMenuButton } from '../common/use-menu-button';

export type ConversationMenuAction = 'rename' | 'pin' | 'settings' | 'delete';

interface ConversationMenuProps {
  conversation: Conversation;
  /** The title as the sidebar shows it ("New conversation" while unnamed). */
  shownTitle: string;
  onAction: (action: ConversationMenuAction) => void;
  /**
   * Asked once when the button appears: true when the row was just moved to another group
   * (pinned, unpinned) by a menu choice, so the button takes the focus the old row lost.
   */
  claimFocus: (id: string) => boolean;
}

/**
 * The "more" button beside a sidebar row and its menu: rename, pin or unpin, settings,
 * delete. Opened from the keyboard, the menu takes the focus (arrow keys move, Enter
 * chooses, Escape closes); afterwards the focus is back on the button unless the choice
 * took it elsewhere (the rename box, the settings drawer, the delete dialog).
 */
export function ConversationMenu({ conversation, shownTitle, onAction, claimFocus }: ConversationMenuProps) {
  const { t } = useTranslation();
  const { open, trigger, onOpenChange, close } = useMenuButton();

  useEffect(() => {
    const active = document.activeElement;
    if ((!active || active === document.body) && claimFocus(conversation.id)) trigger.current?.focus();
    // Only when this row is mounted: later renders are not moves.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const items: MenuProps['items'] = [
    {
      key: 'rename',
      icon: <EditOutlined />,
      label: t('chat:sidebar.rename'),
      'data-testid': 'conversation-menu-rename',
    },
    {
      key: 'pin',
      icon: <PushpinOutlined />,
      label: conversation.is_pinned ? t('chat:sidebar.unpin') : t('chat:sidebar.pin'),
      'data-testid': 'conversation-menu-pin',
    },
    {
      key: 'settings',
      icon: <SettingOutlined />,
      label: t('chat:sidebar.settings'),
      'data-testid': 'conversation-menu-settings',
    },
    { type: 'divider' },
    {
      key: 'delete',
      // Not antd's `danger`: its red on the dark menu is below 4.5:1; this one reaches it in both themes.
      icon: <DeleteOutlined className="chat-conv-menu-danger" />,
      label: <span className="chat-conv-menu-danger">{t('chat:sidebar.delete')}</span>,
      'data-testid': 'conversation-menu-delete',
    },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    close();
    onAction(key as ConversationMenuAction);
  };

  return (
    <Dropdown
      menu={{ items, onClick }}
      trigger={['click']}
      placement="bottomRight"
      open={open}
      onOpenChange={onOpenChange}
      autoFocus
    >
      <Button
        ref={trigger}
        type="text"
        size="small"
        className={`chat-conv-more${open ? ' is-open' : ''}`}
        icon={<MoreOutlined />}
        aria-label={t('chat:sidebar.actions', { title: shownTitle })}
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid="conversation-more"
        data-id={conversation.id}
      />
    </Dropdown>
  );
}
