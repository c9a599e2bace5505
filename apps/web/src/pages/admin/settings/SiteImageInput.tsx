import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Flex, Input, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SITE_IMAGE_ACCEPT, SITE_IMAGE_MAX_BYTES, type SiteImageKind, uploadSiteImage } from '../../../api/site-images';
import { toast } from '../../../api/notify';
import { reportError } from '../../../components/common/report-error';
import { ownImageUrl } from '../../../components/common/image-source';
import { safeUrl } from '../../../components/common/safe-url';

interface SiteImageInputProps {
  kind: SiteImageKind;
  /** Only the preview and the address, without upload and remove buttons. */
  readOnly: boolean;
  /** From Form.Item: the address, its setter and the label's target id. */
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
}

/**
 * A logo or favicon: a preview, the address (typed, or filled in by an upload) and a way
 * to remove it. Uploading only stores the file; the form's save makes the site use it.
 */
export function SiteImageInput({ kind, readOnly, value = '', onChange, id }: SiteImageInputProps) {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(false);
  const preview = ownImageUrl(value);
  // An address on another site is kept as typed, but no page would show it: say so.
  const elsewhere = !preview && safeUrl(value) !== '';

  const upload = async (file: File) => {
    if (file.size > SITE_IMAGE_MAX_BYTES) {
      toast('error', t('settings:image.tooLarge', { mb: SITE_IMAGE_MAX_BYTES / 1024 / 1024 }));
      return;
    }
    setUploading(true);
    try {
      onChange?.(await uploadSiteImage(kind, file));
      toast('success', t('settings:image.uploaded'));
    } catch (error) {
      reportError(error, 'settings:image.uploadFailed');
    } finally {
      setUploading(false);
    }
  };

  return (
    <Flex gap={12} align="flex-start" className="site-image-input">
      <div className={`site-image-preview site-image-preview-${kind}`} data-testid={`settings-${kind}-preview`}>
        {preview ? (
          <img src={preview} alt={t(`settings:image.previewAlt.${kind}`)} />
        ) : (
          <span>{t(elsewhere ? 'settings:image.elsewhere' : 'settings:image.none')}</span>
        )}
      </div>
      <Flex vertical gap={8} style={{ flex: 1, minWidth: 0 }}>
        <Input
          id={id}
          value={value}
          onChange={(event) => onChange?.(event.target.value)}
          placeholder={t('settings:image.placeholder')}
          data-testid={`settings-${kind}-url`}
        />
        {!readOnly && (
          <Flex gap={8} wrap>
            <Upload
              accept={SITE_IMAGE_ACCEPT[kind]}
              showUploadList={false}
              beforeUpload={(file) => {
                void upload(file);
                // The file is sent by `upload`, not by the component's own request.
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} loading={uploading} data-testid={`settings-${kind}-upload`}>
                {t('settings:image.upload')}
              </Button>
            </Upload>
            {value && (
              <Button icon={<DeleteOutlined />} onClick={() => onChange?.('')} data-testid={`settings-${kind}-clear`}>
                {t('settings:image.clear')}
              </Button>
            )}
          </Flex>
        )}
      </Flex>
    </Flex>
  );
}
