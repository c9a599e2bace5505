import { fetchModuleAuthUrl } from '../../api/modules';
import { toast } from '../../api/notify';
import { i18n } from '../../i18n';
import { safeExternalUrl } from '../common/safe-url';

/**
 * Opens a module in a new tab with a freshly signed URL. The tab is opened at once, inside
 * the click, so popup blockers let it through; it is cut off from this page (no opener)
 * and sent to the module once the URL has arrived, or closed again when that fails.
 */
export async function openModuleInNewTab(name: string): Promise<void> {
  const tab = window.open('about:blank', '_blank');
  if (tab) tab.opener = null;
  try {
    const { url } = await fetchModuleAuthUrl(name);
    const target = safeExternalUrl(url);
    if (!target) throw new Error(`Module ${name} answered an address that cannot be opened`);
    if (tab) tab.location.href = target;
    else window.open(target, '_blank', 'noopener,noreferrer');
  } catch (error) {
    tab?.close();
    console.error('Could not open the module', error);
    toast('error', i18n.t('layout:modules.openFailed'));
  }
}
