import { MAX_IMAGES_PER_MESSAGE, type MessageFile, type UploadedImage } from '@aiplatform/contracts';
import { LoadingOutlined, PictureOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { chatApi } from '../../api/chat';
import { toast } from '../../api/notify';
import { RemoveButton } from '../common/RemoveButton';
import { reportError } from '../common/report-error';
import { AuthImage } from './AuthImage';
import { IMAGE_TYPES, checkImageFile } from './image-check';
import { fitToLimit, roomFor } from './image-attachments';
import './chat-images.css';

/**
 * The upload button: several files may be picked at once. Only as many as still fit
 * beside the attached ones are taken (the rest is refused with the limit), each is checked
 * for type and size first, then uploaded; the uploads arrive in the order picked.
 */
export function ImageUploadButton({
  disabled,
  attached,
  onUploaded,
}: {
  disabled: boolean;
  /** How many images are attached already. */
  attached: number;
  onUploaded: (images: UploadedImage[]) => void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const full = roomFor(attached) === 0;
  const limitText = t('chat:image.limit', { max: MAX_IMAGES_PER_MESSAGE });

  const upload = async (picked: File[]) => {
    const { accepted, overLimit } = fitToLimit(attached, picked);
    if (overLimit > 0) toast('warning', limitText);
    const valid = accepted.filter((file) => {
      const problem = checkImageFile(file);
      if (problem) toast('error', t(problem === 'size' ? 'chat:image.tooLarge' : 'chat:image.badType'));
      return !problem;
    });
    if (valid.length === 0) return;
    setUploading(true);
    try {
      const results = await Promise.allSettled(valid.map((file) => chatApi.uploadImage(file)));
      const uploaded = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      const failed = results.find((r) => r.status === 'rejected');
      if (uploaded.length > 0) {
        onUploaded(uploaded);
        toast(
          'success',
          uploaded.length === 1 ? t('chat:image.uploaded') : t('chat:image.uploadedMany', { n: uploaded.length }),
        );
      }
      if (failed) reportError(failed.reason, 'chat:image.uploadFailed');
    } finally {
      setUploading(false);
    }
  };

  const title = uploading ? t('chat:image.uploading') : full ? limitText : t('chat:image.upload');
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        multiple
        hidden
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = '';
          if (files.length > 0) void upload(files);
        }}
        data-testid="image-input"
      />
      <Tooltip title={title}>
        <Button
          icon={uploading ? <LoadingOutlined /> : <PictureOutlined />}
          disabled={disabled || uploading || full}
          onClick={() => input.current?.click()}
          aria-label={full ? limitText : t('chat:image.upload')}
          data-testid="image-upload-button"
        />
      </Tooltip>
    </>
  );
}

/** The attached images above the text box, in order, each with a remove button naming it. */
export function ImagePreviews({ images, onRemove }: { images: MessageFile[]; onRemove: (id: string) => void }) {
  const { t } = useTranslation();
  return (
    <ul className="chat-image-previews" aria-label={t('chat:image.attached')} data-testid="image-previews">
      {images.map((image) => {
        const remove = t('chat:image.removeNamed', { name: image.original_name });
        return (
          <li key={image.id} className="chat-image-preview" data-testid="image-preview">
            <AuthImage url={image.url} name={image.original_name} size={64} />
            <span className="chat-image-preview-name" title={image.original_name}>
              {image.original_name}
            </span>
            <RemoveButton label={remove} onRemove={() => onRemove(image.id)} testId="image-remove" />
          </li>
        );
      })}
    </ul>
  );
}
