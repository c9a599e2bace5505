import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '../../components/common/use-document-title';

/** Any address no route knows, shown inside the signed-in layout. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useDocumentTitle(t('pages:notFound.title'));
  return (
    <Result
      status="404"
      // A real heading, styled like the other result titles, so the page has an h1 to announce.
      title={
        <h1 style={{ font: 'inherit', margin: 0 }} data-testid="not-found-title">
          {t('pages:notFound.title')}
        </h1>
      }
      subTitle={t('pages:notFound.description')}
      extra={
        <Button type="primary" onClick={() => void navigate('/dashboard')} data-testid="not-found-home">
          {t('pages:notFound.backToDashboard')}
        </Button>
      }
      data-testid="not-found"
    />
  );
}
