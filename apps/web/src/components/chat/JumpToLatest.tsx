import { ArrowDownOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import './jump-to-latest.css';

/**
 * The round button floating at the bottom centre of the message list while the user reads
 * further up. It exists only while shown, so it is never an invisible stop in the tab order.
 */
export function JumpToLatest({ onJump }: { onJump: () => void }) {
  const { t } = useTranslation();
  const label = t('chat:list.jumpToLatest');
  return (
    <div className="chat-jump-latest">
      <Tooltip title={label}>
        <Button
          shape="circle"
          icon={<ArrowDownOutlined />}
          aria-label={label}
          onClick={onJump}
          data-testid="jump-to-latest"
        />
      </Tooltip>
    </div>
  );
}
