import type { UploadedImage } from '@aiplatform/contracts';
import { CloseOutlined, LoadingOutlined, PictureOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { chatApi } from '../../api/chat';
import { toast } from '../../api/notify';
import { reportError } from '../common/report-error';
import { AuthImage } from './AuthImage';
import { IMAGE_TYPES, checkImageFile } from './image-check';

/** The upload button: checks type and size first, then POST /chat/upload-image. */
export function ImageUploadButton({
  disabled,
  onUploaded,
}: {
  disabled: boolean;
  onUploaded: (image: UploadedImage) => void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);

  const upload = async (file: File) => {
    const problem = checkImageFile(file);
    if (problem) {
      toast('error', t(problem === 'size' ? 'chat:image.tooLarge' : 'chat:image.badType'));
      return;
    }
    setUploading(true);
    try {
      onUploaded(await chatApi.uploadImage(file));
      toast('success', t('chat:image.uploaded'));
    } catch (error) {
      reportError(error, 'chat:image.uploadFailed');
    } finally {
      setUploading(false);
    }
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void upload(file);
        }}
        data-testid="image-input"
      />
      <Tooltip title={uploading ? t('chat:image.uploading') : t('chat:image.upload')}>
        <Button
          icon={uploading ? <LoadingOutlined /> : <PictureOutlined />}
          disabled={disabled || uploading}
          onClick={() => input.current?.click()}
          aria-label={t('chat:image.upload')}
          data-testid="image-upload-button"
        />
      </Tooltip>
    </>
  );
}

/** The attached image above the text box, with a remove button. */
export function ImagePreview({ image, onRemove }: { image: UploadedImage; onRemove: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="chat-image-preview" data-testid="image-preview">
      <AuthImage url={image.url} name={image.original_name} size={64} />
      <span className="chat-image-preview-name" title={image.original_name}>
        {image.original_name}
      </span>
      <Tooltip title={t('chat:image.remove')}>
        <Button
          size="small"
          type="text"
          icon={<CloseOutlined />}
          onClick={onRemove}
          aria-label={t('chat:image.remove')}
          data-testid="image-remove"
        />
      </Tooltip>
    </div>
  );
}
