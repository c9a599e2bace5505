import { CheckOutlined, CopyOutlined, DeleteOutlined, EditOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopyText } from './use-copy-text';
import { VersionSwitcher } from './VersionSwitcher';

interface MessageActionsProps {
  isUser: boolean;
  tokens: number;
  /** Copy is off while the text is still growing or when there is none. */
  copyDisabled: boolean;
  /** Shown only when the message can be reworked right now. */
  showEdit: boolean;
  showRegenerate: boolean;
  showContinue: boolean;
  deleteDisabled: boolean;
  /** The message and its versions (`sibling_ids`), when the server listed them. */
  messageId: string;
  versions: readonly string[] | undefined;
  versionsDisabled: boolean;
  onShowVersion: (messageId: string) => void;
  /** Callbacks that read the message when clicked, so they stay the same while it streams. */
  onCopy: () => string;
  onEdit: () => void;
  onRegenerate: () => void;
  onContinue: () => void;
  onDelete: () => void;
}

/**
 * The row under a message: its versions (`‹ 1/2 ›`), tokens, copy, edit, regenerate, continue and delete. Its props
 * are flags and stable callbacks, so a streamed answer growing by a few words does not
 * render its buttons and tooltips again on every frame.
 */
export const MessageActions = memo(function MessageActions(props: MessageActionsProps) {
  const { t } = useTranslation();
  const { copied, copy } = useCopyText('content');
  return (
    <div className="chat-message-actions">
      {props.versions && (
        <VersionSwitcher
          versions={props.versions}
          current={props.messageId}
          disabled={props.versionsDisabled}
          onShow={props.onShowVersion}
        />
      )}
      {!props.isUser && props.tokens > 0 && (
        <span className="chat-message-tokens" data-testid="message-tokens">
          {t('chat:message.tokens', { n: props.tokens })}
        </span>
      )}
      <Tooltip title={copied ? t('chat:message.copied') : t('chat:message.copy')}>
        <Button
          size="small"
          type="text"
          icon={copied ? <CheckOutlined /> : <CopyOutlined />}
          disabled={props.copyDisabled}
          onClick={() => void copy(props.onCopy())}
          aria-label={t('chat:message.copy')}
          data-testid="message-copy"
        />
      </Tooltip>
      {props.showEdit && (
        <Tooltip title={t('chat:message.edit')}>
          <Button
            size="small"
            type="text"
            icon={<EditOutlined />}
            onClick={props.onEdit}
            aria-label={t('chat:message.edit')}
            data-testid="message-edit"
          />
        </Tooltip>
      )}
      {props.showRegenerate && (
        <Tooltip title={t('chat:message.regenerate')}>
          <Button
            size="small"
            type="text"
            icon={<ReloadOutlined />}
            onClick={props.onRegenerate}
            aria-label={t('chat:message.regenerate')}
            data-testid="message-regenerate"
          />
        </Tooltip>
      )}
      {props.showContinue && (
        <Button size="small" onClick={props.onContinue} data-testid="message-continue">
          {t('chat:message.continue')}
        </Button>
      )}
      {!props.isUser && (
        <Tooltip title={t('chat:message.delete')}>
          <Button
            size="small"
            type="text"
            danger
            icon={<DeleteOutlined />}
            disabled={props.deleteDisabled}
            onClick={props.onDelete}
            aria-label={t('chat:message.delete')}
            data-testid="message-delete"
          />
        </Tooltip>
      )}
    </div>
  );
});
