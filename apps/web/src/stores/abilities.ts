import { ACTION_RULES, type Action, type AppPage, PAGE_ACTIONS, type SessionAbilities } from '@aiplatform/contracts';
import { useAuthStore } from './auth-store';

/** Nothing open: what the web assumes until the server has said otherwise. */
export const NO_ABILITIES: SessionAbilities = {
  pages: Object.fromEntries(Object.keys(PAGE_ACTIONS).map((p) => [p, false])) as Record<AppPage, boolean>,
  settings: { settings: 'none', models: 'none', modules: 'none' },
  actions: Object.fromEntries(Object.keys(ACTION_RULES).map((a) => [a, 'none'])) as Record<Action, 'none'>,
};

/** The signed-in user's pages and page-level actions, as the server decided them. */
export function useAbilities(): SessionAbilities {
  return useAuthStore((s) => s.abilities) ?? NO_ABILITIES;
}
