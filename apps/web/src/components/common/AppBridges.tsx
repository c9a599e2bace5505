import { useEffect, useLayoutEffect } from 'react';
import { useNavigate } from 'react-router';
import { bindNavigate } from '../../api/notify';
import { usePublicConfig, useSiteBranding } from '../../api/use-public-config';
import { applyFavicon, applyThemeVariables } from './apply-public-config';
import { formatDocumentTitle, usePageTitle } from './use-document-title';
import { useNetworkStatus } from './use-network-status';

/**
 * Connects what lives outside React to the app: navigation for the API client,
 * network-status notices, the tab title, and the public configuration's effects on the page.
 */
export function AppBridges() {
  const navigate = useNavigate();
  const { config } = usePublicConfig();
  const { name } = useSiteBranding();
  const pageTitle = usePageTitle();

  useLayoutEffect(() => bindNavigate((path) => void navigate(path)), [navigate]);
  useNetworkStatus();

  useEffect(() => {
    document.title = formatDocumentTitle(pageTitle, name);
  }, [pageTitle, name]);
  useEffect(() => {
    applyThemeVariables(config);
    applyFavicon(config.site.favicon);
  }, [config]);
  return null;
}
