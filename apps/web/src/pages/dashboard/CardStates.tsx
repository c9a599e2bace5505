import { Alert, Button, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../components/common/report-error';

/** A card's numbers on their way: grey bars of about the same height. */
export function CardSkeleton({ rows = 4, testId }: { rows?: number; testId: string }) {
  // antd's Skeleton drops unknown props, so the test id sits on a wrapper.
  return (
    <div data-testid={`${testId}-loading`}>
      <Skeleton active title={false} paragraph={{ rows }} />
    </div>
  );
}

interface CardErrorProps {
  error: unknown;
  onRetry: () => void;
  /** The card's test id; the alert gets `-error`, its button `-retry`. */
  testId: string;
}

/**
 * A card whose data could not be read: what happened and a retry. The card keeps its
 * place, so the rest of the dashboard stays usable.
 */
export function CardError({ error, onRetry, testId }: CardErrorProps) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      title={t('dashboard:state.loadFailed')}
      description={errorText(error, 'dashboard:state.loadFailedHint')}
      action={
        <Button size="small" onClick={onRetry} data-testid={`${testId}-retry`}>
          {t('common:retry')}
        </Button>
      }
      data-testid={`${testId}-error`}
    />
  );
}
