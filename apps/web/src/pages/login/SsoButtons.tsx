import type { SignInProvider } from '@aiplatform/contracts';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { afterSignInPath } from '../../components/common/redirect-target';
import { ssoStartUrl } from './sso-addresses';
import { bindThisTab } from './sso-binding';

/** One button per single sign-on provider; each leads to the provider and back to the page asked for. */
export function SsoButtons({ providers }: { providers: SignInProvider[] }) {
  const { t } = useTranslation();
  const target = afterSignInPath(useLocation().search);
  if (providers.length === 0) return null;
  return (
    <div className="sso-buttons" data-testid="sso-buttons">
      {providers.map((p) => (
        <Button
          key={p.slug}
          block
          size="large"
          onClick={() => window.location.assign(ssoStartUrl(p.slug, target, bindThisTab()))}
          data-testid={`sso-${p.slug}`}
        >
          {t('auth:sso.continueWith', { name: p.name })}
        </Button>
      ))}
    </div>
  );
}

/** A line between the provider buttons and the password form. */
export function SsoDivider() {
  const { t } = useTranslation();
  return (
    <div className="sso-divider" role="separator">
      <span>{t('auth:sso.or')}</span>
    </div>
  );
}

/** Why the last provider sign-in failed, from `?sso_error=CODE`, in the reader's language. */
export function SsoErrorAlert({ code }: { code: string | null }) {
  const { t } = useTranslation();
  if (!code) return null;
  return (
    <div className="auth-error" role="alert" data-testid="sso-error">
      {t(`errors:${code}`, { defaultValue: t('auth:sso.failed') })}
    </div>
  );
}
