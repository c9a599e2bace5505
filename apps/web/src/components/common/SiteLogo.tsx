import { useTranslation } from 'react-i18next';
import { useSiteBranding } from '../../api/use-public-config';
import { ownImageUrl } from './image-source';

/** The site logo image, or an "AI" badge when none is configured (or it is unsafe, or on another site). */
export function SiteLogo({ size = 32 }: { size?: number }) {
  const { t } = useTranslation();
  const { name, logo } = useSiteBranding();
  const src = ownImageUrl(logo);
  if (src) return <img className="site-logo" src={src} alt={name} width={size} height={size} />;
  return (
    <span className="site-logo-badge" style={{ width: size, height: size, fontSize: size * 0.42 }} aria-hidden>
      {t('common:logoBadge')}
    </span>
  );
}
