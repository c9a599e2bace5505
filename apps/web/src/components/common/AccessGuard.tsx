import { type AdminPage, type Role, hasAnyPermission, hasRole, mayOpenAdminPage } from '@aiplatform/contracts';
import { Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthStore } from '../../stores/auth-store';

interface AccessGuardProps {
  /** Any one of these permissions grants access. */
  anyPermission?: readonly string[];
  /** Any one of these roles grants access. */
  roles?: readonly Role[];
  /** An admin screen, opened by whoever may perform its reading action (the shared action map). */
  callPage?: AdminPage;
  children: ReactNode;
}

/** Renders its children only for users with the required permission, role or admin-page right. */
export function AccessGuard({ anyPermission, roles, callPage, children }: AccessGuardProps) {
  const { t } = useTranslation();
  const permissions = useAuthStore((s) => s.permissions);
  const role = useAuthStore((s) => s.user?.role);
  const allowed =
    (!anyPermission || hasAnyPermission(permissions, anyPermission)) &&
    (!roles || hasRole(role, roles)) &&
    (!callPage || mayOpenAdminPage(permissions, callPage));
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
