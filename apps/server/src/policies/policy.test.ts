import { ACTION_RULES, type Action, ROLE_PERMISSIONS } from '@aiplatform/contracts';
import { describe, expect, it } from 'vitest';
import { type Expected, TABLE, actors, targets } from '../../test/policy-cases.js';
import { AppError } from '../lib/http/errors.js';
import type { Actor } from './actor.js';
import { type PolicyTarget, authorize, authorizeFound, can, listScope, refuseSelfAction } from './policy.js';

function outcome(actor: Actor, action: Action, target: PolicyTarget | undefined): Expected {
  try {
    authorize(actor, action, target);
    return true;
  } catch (err) {
    if (
      err instanceof AppError &&
      (err.code === 'FORBIDDEN' || err.code === 'NOT_FOUND' || err.code === 'SELF_ACTION_NOT_ALLOWED')
    )
      return err.code;
    throw err;
  }
}

describe('policy', () => {
  it('describes the group administrator fixture with the real role permissions', () => {
    expect([...actors.admin2.permissions].sort()).toEqual([...ROLE_PERMISSIONS.admin].sort());
    expect([...actors.user2.permissions].sort()).toEqual([...ROLE_PERMISSIONS.user].sort());
    expect(actors.super.permissions).toEqual(ROLE_PERMISSIONS.super_admin);
  });

  it.each(TABLE)('%s %s %s → %s', (actorName, action, targetName, expected) => {
    const actor = actors[actorName];
    const target = targetName === '-' ? undefined : targets[targetName];
    expect(can(actor, action, target)).toBe(expected === true);
    expect(outcome(actor, action, target)).toBe(expected);
  });

  it('has a row for every action in ACTION_RULES, for the super administrator and the group administrator', () => {
    const covered = new Set(TABLE.map(([, action]) => action));
    for (const action of Object.keys(ACTION_RULES) as Action[]) expect(covered, action).toContain(action);
    for (const name of ['admin2', 'super'] as const) {
      const forActor = new Set(TABLE.filter(([a]) => a === name).map(([, action]) => action));
      for (const action of Object.keys(ACTION_RULES) as Action[])
        expect(forActor, `${name} ${action}`).toContain(action);
    }
  });

  it('gives every actor a decision on every action without a target that agrees with the table', () => {
    for (const actor of Object.values(actors)) {
      for (const action of Object.keys(ACTION_RULES) as Action[]) {
        const allowed = can(actor, action);
        expect(outcome(actor, action, undefined)).toBe(allowed ? true : 'FORBIDDEN');
      }
    }
    // A plain user holds no admin action at all: only chatting and uploading into the chat.
    for (const action of Object.keys(ACTION_RULES) as Action[])
      expect(can(actors.user2, action), action).toBe(action === 'chat.use' || action === 'file.upload');
    // The super administrator holds all of them.
    for (const action of Object.keys(ACTION_RULES) as Action[]) expect(can(actors.super, action), action).toBe(true);
  });

  describe('authorizeFound', () => {
    const found = (actor: Actor, target: PolicyTarget | undefined) => {
      try {
        return authorizeFound(actor, 'user.read', target, (x) => x) === target;
      } catch (err) {
        return (err as AppError).code;
      }
    };

    it('answers FORBIDDEN to an actor without the right whether or not the object exists', () => {
      expect(found(actors.user2, targets.u2user)).toBe('FORBIDDEN');
      expect(found(actors.user2, undefined)).toBe('FORBIDDEN');
    });

    it('answers NOT_FOUND to an actor with the right for a missing or out-of-scope object', () => {
      expect(found(actors.admin2, undefined)).toBe('NOT_FOUND');
      expect(found(actors.admin2, targets.u3user)).toBe('NOT_FOUND');
      expect(found(actors.admin2, targets.u2user)).toBe(true);
      expect(found(actors.super, undefined)).toBe('NOT_FOUND');
    });
  });

  describe('listScope', () => {
    const scopeOrError = (actor: Actor, action: Action) => {
      try {
        return listScope(actor, action);
      } catch (err) {
        return (err as AppError).code;
      }
    };

    it.each([
      ['super', 'user.read', { all: true }],
      ['super', 'group.read', { all: true }],
      ['super', 'audit.read', { all: true }],
      ['admin2', 'user.read', { all: false, groupId: 2 }],
      ['admin2', 'user.export', { all: false, groupId: 2 }],
      ['admin2', 'group.read', { all: false, groupId: 2 }],
      ['admin3', 'user.read', { all: false, groupId: 3 }],
      ['admin2', 'audit.read', 'FORBIDDEN'],
      ['admin2', 'user.move', 'FORBIDDEN'],
      ['adminNoGroup', 'user.read', 'FORBIDDEN'],
      ['user2', 'user.read', 'FORBIDDEN'],
      ['user2', 'group.read', 'FORBIDDEN'],
      ['manager2', 'user.read', { all: true }],
      ['manager2', 'credits.read', { all: true }],
      ['manager2', 'group.read', { all: false, groupId: 2 }],
    ] as const)('%s %s → %j', (actorName, action, expected) => {
      expect(scopeOrError(actors[actorName], action)).toEqual(expected);
    });
  });

  describe('refuseSelfAction', () => {
    const refusal = (actor: Actor, action: Action, ids: number | number[]) => {
      try {
        refuseSelfAction(actor, action, ids);
        return true;
      } catch (err) {
        return (err as AppError).code;
      }
    };

    it('refuses the self-actions on the actor’s own id, among others too, and nothing else', () => {
      expect(refusal(actors.super, 'user.status', 1)).toBe('SELF_ACTION_NOT_ALLOWED');
      expect(refusal(actors.super, 'user.status', [30, 1])).toBe('SELF_ACTION_NOT_ALLOWED');
      expect(refusal(actors.admin2, 'user.delete', 10)).toBe('SELF_ACTION_NOT_ALLOWED');
      expect(refusal(actors.super, 'user.status', [30, 31])).toBe(true);
      expect(refusal(actors.super, 'user.update', 1)).toBe(true);
      expect(refusal(actors.super, 'user.password', 1)).toBe(true);
    });
  });
});
