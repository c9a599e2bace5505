import type { PublicSystemConfig } from '@aiplatform/contracts';
import { call } from './call';

/** What the client assumes when the public configuration cannot be loaded. */
export const DEFAULT_PUBLIC_CONFIG: PublicSystemConfig = {
  site: { name: '', description: '', logo: '', favicon: '' },
  user: { allow_register: true, email_verification: false },
  login: { mode: 'standard', local_password: 'all' },
  homepage: { enabled: false },
  chat: { font_family: 'system-ui', font_size: 14 },
  ai: { default_model: 'gpt-4.1-mini-op', temperature: 0 },
  theme: { colors: {} },
  sharing: { public_links: false },
};

/** GET /public/system-config, completed with defaults for any section an older server omits. */
export async function fetchPublicConfig(): Promise<PublicSystemConfig> {
  try {
    const data: Partial<PublicSystemConfig> = await call('getPublicConfig', { silent: true });
    return {
      site: { ...DEFAULT_PUBLIC_CONFIG.site, ...data.site },
      user: { ...DEFAULT_PUBLIC_CONFIG.user, ...data.user },
      login: { ...DEFAULT_PUBLIC_CONFIG.login, ...data.login },
      homepage: { ...DEFAULT_PUBLIC_CONFIG.homepage, ...data.homepage },
      chat: { ...DEFAULT_PUBLIC_CONFIG.chat, ...data.chat },
      ai: { ...DEFAULT_PUBLIC_CONFIG.ai, ...data.ai },
      theme: { colors: { ...data.theme?.colors } },
      sharing: { ...DEFAULT_PUBLIC_CONFIG.sharing, ...data.sharing },
    };
  } catch (error) {
    console.error('Public configuration unavailable, using defaults', error);
    return DEFAULT_PUBLIC_CONFIG;
  }
}
