import type { MessageFile } from '@aiplatform/contracts';
import { Image } from 'antd';
import { AuthImage } from './AuthImage';
import './chat-images.css';

/**
 * The images of a message in the order sent: one at the usual size, several as a grid of
 * smaller ones. Each opens large on click; the preview steps through the message's images.
 */
export function MessageImages({ files }: { files: MessageFile[] }) {
  if (files.length === 0) return null;
  const size = files.length === 1 ? 200 : 120;
  return (
    <div className="chat-image-grid" data-testid="message-images" data-count={files.length}>
      <Image.PreviewGroup>
        {files.map((file) => (
          <AuthImage key={file.id} url={file.url} name={file.original_name} size={size} testId="message-image" />
        ))}
      </Image.PreviewGroup>
    </div>
  );
}
