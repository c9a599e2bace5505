import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';

interface VersionSwitcherProps {
  /** The message's versions, oldest first, itself included. */
  versions: readonly string[];
  current: string;
  /** Off while an answer is produced in the conversation. */
  disabled: boolean;
  onShow: (messageId: string) => void;
}

/** `‹ 2/3 ›` under a message that has versions: shows the previous or next one's branch. */
export const VersionSwitcher = memo(function VersionSwitcher({
  versions,
  current,
  disabled,
  onShow,
}: VersionSwitcherProps) {
  const { t } = useTranslation();
  const at = versions.indexOf(current);
  if (versions.length < 2 || at < 0) return null;
  const previous = versions[at - 1];
  const next = versions[at + 1];
  return (
    <span className="chat-versions" data-testid="message-versions">
      <Button
        size="small"
        type="text"
        icon={<LeftOutlined />}
        disabled={disabled || !previous}
        onClick={() => previous && onShow(previous)}
        aria-label={t('chat:message.previousVersion')}
        data-testid="message-version-previous"
      />
      <span data-testid="message-version-label" aria-live="polite">
        {t('chat:message.versionOf', { n: at + 1, total: versions.length })}
      </span>
      <Button
        size="small"
        type="text"
        icon={<RightOutlined />}
        disabled={disabled || !next}
        onClick={() => next && onShow(next)}
        aria-label={t('chat:message.nextVersion')}
        data-testid="message-version-next"
      />
    </span>
  );
});
