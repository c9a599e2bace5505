import type { Action, Scope } from '@aiplatform/contracts';
import { useMemo } from 'react';
import { useAbilities } from '../../../stores/abilities';

export interface AdminAccess {
  /** How far the signed-in user's right to an action reaches. */
  scope(action: Action): Scope;
  /** True when the action is allowed on at least some objects. */
  can(action: Action): boolean;
  /** True only for the actors whose right covers every object. */
  canEverywhere(action: Action): boolean;
}

/**
 * The reach of each action for the signed-in user, as the server sent it with the session:
 * for the controls that act on no particular object (create, import, export, filters).
 * Controls on a row read that row's own `abilities`.
 */
export function useAdminAccess(): AdminAccess {
  const { actions } = useAbilities();
  return useMemo(
    () => ({
      scope: (action) => actions[action],
      can: (action) => actions[action] !== 'none',
      canEverywhere: (action) => actions[action] === 'all',
    }),
    [actions],
  );
}
