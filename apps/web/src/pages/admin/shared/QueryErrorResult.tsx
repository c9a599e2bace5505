import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../components/common/report-error';

interface QueryErrorResultProps {
  error: unknown;
  onRetry: () => void;
  testId?: string;
}

/** A list or detail that could not be loaded: what went wrong and a way to try again. */
export function QueryErrorResult({ error, onRetry, testId = 'admin-load-error' }: QueryErrorResultProps) {
  const { t } = useTranslation();
  return (
    <Result
      status="error"
      title={t('admin:state.loadFailed')}
      subTitle={errorText(error, 'admin:state.loadFailedHint')}
      extra={
        <Button type="primary" onClick={onRetry} data-testid={`${testId}-retry`}>
          {t('common:retry')}
        </Button>
      }
      data-testid={testId}
    />
  );
}
