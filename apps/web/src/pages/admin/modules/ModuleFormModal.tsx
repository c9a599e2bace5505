import type { AdminModule } from '@aiplatform/contracts';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useOverlaySize } from '../shared/use-overlay-size';
import { ModuleForm } from './ModuleForm';

interface ModuleFormModalProps {
  /** The module to edit; null adds a new one. */
  module: AdminModule | null;
  open: boolean;
  modules: readonly AdminModule[];
  onClose: () => void;
  afterClose: () => void;
}

export function ModuleFormModal({ module, open, modules, onClose, afterClose }: ModuleFormModalProps) {
  const { t } = useTranslation();
  const { modalWidth } = useOverlaySize(680);
  return (
    <Modal
      open={open}
      title={module ? t('catalog:modules.editTitle', { name: module.display_name }) : t('catalog:modules.createTitle')}
      footer={null}
      onCancel={onClose}
      afterClose={afterClose}
      width={modalWidth}
      destroyOnHidden
      data-testid="module-form-modal"
    >
      <ModuleForm module={module} modules={modules} onClose={onClose} />
    </Modal>
  );
}
