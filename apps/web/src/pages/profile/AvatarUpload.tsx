import { LIMITS } from '@aiplatform/contracts';
import { CameraOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadAvatar } from '../../api/auth';
import { toast } from '../../api/notify';
import { reportError } from '../../components/common/report-error';
import { safeUrl } from '../../components/common/safe-url';
import { useAuthStore } from '../../stores/auth-store';

const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** The profile picture with a change button: JPG, PNG, GIF or WebP up to 2 MB. */
export function AvatarUpload() {
  const { t } = useTranslation();
  const user = useAuthStore((s) => s.user);
  const [uploading, setUploading] = useState(false);
  const src = safeUrl(user?.avatar_url);

  const upload = async (file: File) => {
    if (!AVATAR_TYPES.includes(file.type)) return toast('error', t('profile:avatar.badType'));
    if (file.size > LIMITS.avatarMaxBytes) return toast('error', t('profile:avatar.tooLarge'));
    setUploading(true);
    try {
      const { user: updated } = await uploadAvatar(file);
      useAuthStore.getState().setUser(updated);
      toast('success', t('profile:avatar.success'));
    } catch (error) {
      reportError(error, 'profile:avatar.failed');
    } finally {
      setUploading(false);
    }
  };

  return (
    <div className="profile-avatar">
      <Avatar size={88} src={src || undefined} icon={src ? undefined : <UserOutlined />} data-testid="profile-avatar" />
      <Upload
        accept={AVATAR_TYPES.join(',')}
        showUploadList={false}
        beforeUpload={(file) => {
          void upload(file);
          // The file is sent by `upload`, not by the Upload component.
          return false;
        }}
      >
        <Button size="small" icon={<CameraOutlined />} loading={uploading} data-testid="avatar-upload">
          {t('profile:avatar.change')}
        </Button>
      </Upload>
    </div>
  );
}
