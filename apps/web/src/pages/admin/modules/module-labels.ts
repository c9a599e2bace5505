import type { AdminModule, ModuleAuthMode } from '@aiplatform/contracts';

type OpenMode = AdminModule['open_mode'];
type Health = AdminModule['health_status'];

/** Translation keys written out so the locale check sees each one. */
export const OPEN_MODE_KEYS: Record<OpenMode, string> = {
  iframe: 'catalog:modules.openMode.iframe',
  new_tab: 'catalog:modules.openMode.new_tab',
};

export const AUTH_MODE_KEYS: Record<ModuleAuthMode, string> = {
  none: 'catalog:modules.authMode.none',
  signed_token: 'catalog:modules.authMode.signed_token',
};

export const HEALTH_KEYS: Record<Health, string> = {
  up: 'catalog:modules.health.up',
  down: 'catalog:modules.health.down',
  unknown: 'catalog:modules.health.unknown',
};

export const HEALTH_COLORS: Record<Health, string> = { up: 'success', down: 'error', unknown: 'default' };
