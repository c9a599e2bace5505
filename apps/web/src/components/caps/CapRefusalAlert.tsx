import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { clearCapRefusal, useCapRefusal } from '../../api/cap-refusal';
import { capReachedText } from '../../api/cap-text';

/** Above the text box after a send a cap refused: which cap, and when chatting works again. */
export function CapRefusalAlert() {
  const { t, i18n } = useTranslation();
  const refusal = useCapRefusal();
  if (!refusal) return null;
  return (
    <Alert
      type="warning"
      showIcon
      closable={{ onClose: clearCapRefusal }}
      title={capReachedText(t, refusal, new Date(), i18n.language)}
      style={{ marginBottom: 8 }}
      data-testid="cap-reached"
    />
  );
}
