import { type Role, hasAnyPermission, hasRole } from '@aiplatform/contracts';
import { Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthStore } from '../../stores/auth-store';

interface AccessGuardProps {
  /** Any one of these permissions grants access. */
  anyPermission?: readonly string[];
  /** Any one of these roles grants access. */
  roles?: readonly Role[];
  children: ReactNode;
}

/** Renders its children only for users with the required permission or role (SPEC §6). */
export function AccessGuard({ anyPermission, roles, children }: AccessGuardProps) {
  const { t } = useTranslation();
  const permissions = useAuthStore((s) => s.permissions);
  const role = useAuthStore((s) => s.user?.role);
  const allowed = (!anyPermission || hasAnyPermission(permissions, anyPermission)) && (!roles || hasRole(role, roles));
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
