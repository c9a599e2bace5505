import { useTranslation } from 'react-i18next';

/**
 * Shown while a page chunk, the public configuration or the session check is loading.
 * A CSS spinner instead of antd Spin keeps this out of the first bundle's weight.
 */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="page-loading" role="status" data-testid="page-loading">
      <span className="page-loading-spinner" aria-hidden />
      <span>{t('common:loading')}</span>
    </div>
  );
}
