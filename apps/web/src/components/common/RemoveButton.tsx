import { CloseOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';

/** The small × that takes one attachment (an image, a document) off a message being written. */
export function RemoveButton({ label, onRemove, testId }: { label: string; onRemove: () => void; testId: string }) {
  return (
    <Tooltip title={label}>
      <Button
        size="small"
        type="text"
        icon={<CloseOutlined />}
        onClick={onRemove}
        aria-label={label}
        data-testid={testId}
      />
    </Tooltip>
  );
}
