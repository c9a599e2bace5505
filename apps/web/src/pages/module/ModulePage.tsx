import { useQuery } from '@tanstack/react-query';
import { Button, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { fetchUserModules } from '../../api/modules';
import { queryKeys } from '../../api/query-keys';
import { useDocumentTitle } from '../../components/common/use-document-title';
import { AdminTheme } from '../admin/shared/AdminTheme';
import { ModuleFrame } from './ModuleFrame';
import { NewTabModule } from './NewTabModule';
import './module-page.css';

/** /module/:name: one of the user's modules, framed or behind an "open in new tab" button. */
export default function ModulePage() {
  // The contrast-safe colours of the admin screens: antd's default blue is too light for small link text.
  return (
    <AdminTheme>
      <ModuleView />
    </AdminTheme>
  );
}

function ModuleView() {
  const { t } = useTranslation();
  const { moduleName = '' } = useParams();
  const modules = useQuery({ queryKey: queryKeys.userModules, queryFn: fetchUserModules });
  const module = modules.data?.find((m) => m.name === moduleName);
  useDocumentTitle(module?.display_name ?? (modules.isSuccess ? t('pages:module.notFound') : null));

  if (modules.isLoading) {
    return (
      <div className="module-page-state" data-testid="module-loading">
        <Spin size="large" description={t('pages:module.loading')} />
      </div>
    );
  }
  if (modules.isError) {
    return (
      <Result
        status="error"
        title={t('pages:module.loadFailed')}
        extra={
          <Button type="primary" onClick={() => void modules.refetch()} data-testid="module-retry">
            {t('common:retry')}
          </Button>
        }
        data-testid="module-error"
      />
    );
  }
  if (!module) {
    return (
      <Result
        status="404"
        title={t('pages:module.notFound')}
        subTitle={t('pages:module.notFoundHint')}
        extra={
          <Link to="/dashboard" data-testid="module-back">
            {t('pages:module.backToDashboard')}
          </Link>
        }
        data-testid="module-not-found"
      />
    );
  }
  // A new module (another name) starts from scratch: its own URL, frame and loading state.
  return module.open_mode === 'iframe' ? (
    <ModuleFrame key={module.name} module={module} />
  ) : (
    <NewTabModule key={module.name} module={module} />
  );
}
