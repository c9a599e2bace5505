import type { AppPage } from '@aiplatform/contracts';
import { Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAbilities } from '../../stores/abilities';

interface AccessGuardProps {
  /** The screen guarded: open to whoever the server says may open it. */
  page: AppPage;
  children: ReactNode;
}

/** Renders its children only when the server's abilities for the session open the page. */
export function AccessGuard({ page, children }: AccessGuardProps) {
  const { t } = useTranslation();
  const allowed = useAbilities().pages[page];
  if (allowed) return children;
  return (
    <Result
      status="403"
      title={t('common:noPermission.title')}
      subTitle={t('common:noPermission.description')}
      data-testid="no-permission"
    />
  );
}
