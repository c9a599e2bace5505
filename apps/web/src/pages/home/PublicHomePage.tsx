import { HOMEPAGE_SANDBOX } from '@aiplatform/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePublicConfig, useSiteBranding } from '../../api/use-public-config';
import { LanguageSwitch } from '../../components/common/LanguageSwitch';
import { SiteLogo } from '../../components/common/SiteLogo';
import './public-home.css';

/** The sanitised homepage as a whole document, served with a strict content security policy. */
const HOMEPAGE_DOCUMENT = '/api/public/homepage.html';

/**
 * The custom homepage for visitors: a slim bar with the site, the language switch and
 * the ways in, above the administrator's page. The page runs in a sandboxed frame (no
 * scripts, forms or same-origin access), so its HTML can never act as this app; a click on
 * one of its links may only move this whole window (links to this site) or open a new tab.
 */
export default function PublicHomePage() {
  const { t } = useTranslation();
  const { name } = useSiteBranding();
  const { config } = usePublicConfig();
  return (
    <div className="public-home">
      <header className="public-home-bar">
        <Link to="/" className="public-home-brand" data-testid="homepage-brand">
          <SiteLogo size={28} />
          <span className="public-home-name">{name}</span>
        </Link>
        <nav className="public-home-actions">
          <LanguageSwitch />
          <Link to="/login" className="public-home-link" data-testid="homepage-login">
            {t('auth:login.title')}
          </Link>
          {config.user.allow_register && (
            <Link to="/register" className="public-home-link public-home-link-primary" data-testid="homepage-register">
              {t('auth:login.registerLink')}
            </Link>
          )}
        </nav>
      </header>
      <iframe
        className="public-home-frame"
        title={name}
        sandbox={HOMEPAGE_SANDBOX}
        src={HOMEPAGE_DOCUMENT}
        data-testid="homepage-frame"
      />
    </div>
  );
}
