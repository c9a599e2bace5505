import { type Action, type Scope, scopeOf } from '@aiplatform/contracts';
import { useMemo } from 'react';
import { useAuthStore } from '../../../stores/auth-store';

export interface AdminAccess {
  /** How far the signed-in user's right to an action reaches. */
  scope(action: Action): Scope;
  /** True when the action is allowed on at least some objects. */
  can(action: Action): boolean;
  /** True only for the actors whose right covers every object. */
  canEverywhere(action: Action): boolean;
  currentUserId: number | undefined;
}

/** The shared action map applied to the signed-in user, for showing only the controls they may use. */
export function useAdminAccess(): AdminAccess {
  const permissions = useAuthStore((s) => s.permissions);
  const currentUserId = useAuthStore((s) => s.user?.id);
  return useMemo(
    () => ({
      scope: (action) => scopeOf(permissions, action),
      can: (action) => scopeOf(permissions, action) !== 'none',
      canEverywhere: (action) => scopeOf(permissions, action) === 'all',
      currentUserId,
    }),
    [permissions, currentUserId],
  );
}
