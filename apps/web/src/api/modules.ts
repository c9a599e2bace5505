import type { ModuleAuthUrl, UserModule } from '@aiplatform/contracts';
import { call } from './call';

/**
 * Active modules for the signed-in user. Failures reject without a toast: the menu then
 * simply lists none, and the module page says it could not load them.
 */
export async function fetchUserModules(): Promise<UserModule[]> {
  const list = await call('listMyModules', { silent: true });
  return Array.isArray(list) ? list.filter((m) => m.is_active) : [];
}

/**
 * GET /modules/:name/auth-url: where to open a module. With a signed token the URL is
 * good for one opening only, so it is fetched again for every frame or new tab.
 */
export function fetchModuleAuthUrl(name: string): Promise<ModuleAuthUrl> {
  return call('moduleAuthUrl', { params: { name }, silent: true });
}
