import type { UserModule } from '@aiplatform/contracts';
import { request } from './http';

/** Active modules for the signed-in user; a failure only logs, the menu simply has none. */
export async function fetchUserModules(): Promise<UserModule[]> {
  try {
    const list = await request<UserModule[]>({ method: 'GET', url: '/admin/modules/user-modules', silent: true });
    return Array.isArray(list) ? list.filter((m) => m.is_active) : [];
  } catch (error) {
    console.error('Could not load modules', error);
    return [];
  }
}
