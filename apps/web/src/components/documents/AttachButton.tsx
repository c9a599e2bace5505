import { LoadingOutlined, PaperClipOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { attachAccept } from './document-attachments';

/** The paperclip: picks documents (and images, when the model takes them), several at once. */
export function AttachButton({
  disabled,
  uploading,
  imagesAllowed,
  onFiles,
}: {
  disabled: boolean;
  uploading: boolean;
  imagesAllowed: boolean;
  onFiles: (files: File[]) => void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const label = uploading ? t('chat:documents.uploading') : t('chat:documents.attach');
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={attachAccept(imagesAllowed)}
        multiple
        hidden
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
        data-testid="attach-input"
      />
      <Tooltip title={label}>
        <Button
          icon={uploading ? <LoadingOutlined /> : <PaperClipOutlined />}
          disabled={disabled}
          onClick={() => input.current?.click()}
          aria-label={t('chat:documents.attach')}
          data-testid="attach-button"
        />
      </Tooltip>
    </>
  );
}
