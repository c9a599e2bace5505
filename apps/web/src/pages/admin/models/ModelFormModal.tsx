import type { AdminModel } from '@aiplatform/contracts';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useOverlaySize } from '../shared/use-overlay-size';
import { ModelForm } from './ModelForm';

interface ModelFormModalProps {
  /** The model to edit; null adds a new one. */
  model: AdminModel | null;
  open: boolean;
  /** Every model (the next sort order, the ids discovery must not offer twice). */
  models: readonly AdminModel[];
  onClose: () => void;
  afterClose: () => void;
}

/** Add or edit a model; the form is rebuilt for each opening (key removal and discovery start afresh). */
export function ModelFormModal({ model, open, models, onClose, afterClose }: ModelFormModalProps) {
  const { t } = useTranslation();
  const { modalWidth } = useOverlaySize(720);
  return (
    <Modal
      open={open}
      title={model ? t('catalog:models.editTitle', { name: model.display_name }) : t('catalog:models.createTitle')}
      footer={null}
      onCancel={onClose}
      afterClose={afterClose}
      width={modalWidth}
      destroyOnHidden
      data-testid="model-form-modal"
    >
      <ModelForm model={model} models={models} onClose={onClose} />
    </Modal>
  );
}
