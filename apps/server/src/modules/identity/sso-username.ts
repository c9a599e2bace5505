import crypto from 'node:crypto';
import { LIMITS, USERNAME_PATTERN } from '@aiplatform/contracts';
import type { Db } from '../../db/types.js';
import type { UsersRepo } from '../users/users.repo.js';

/** Letters, digits, '_' and '-' only, cut to the longest username, leaving room for a suffix. */
function cleaned(value: string | undefined): string {
  return (value ?? '').replace(/[^A-Za-z0-9_-]+/g, '').slice(0, LIMITS.usernameMax - 5);
}

/**
 * A free username for an account created at its first single sign-on: the provider's
 * username, else the email's local part, else "user"; a few random digits are added when it
 * is taken or too short. The unique index still decides a race between two first sign-ins.
 */
export async function freeUsername(
  users: UsersRepo,
  wanted: { username?: string; email?: string },
  db: Db,
): Promise<string> {
  const base = cleaned(wanted.username) || cleaned(wanted.email?.split('@')[0]) || 'user';
  const fits = (name: string) =>
    name.length >= LIMITS.usernameMin && name.length <= LIMITS.usernameMax && USERNAME_PATTERN.test(name);
  if (fits(base) && !(await users.findByUsername(base, db))) return base;
  for (let attempt = 0; attempt < 20; attempt++) {
    const candidate = `${base}_${crypto.randomInt(1000, 10_000)}`;
    if (fits(candidate) && !(await users.findByUsername(candidate, db))) return candidate;
  }
  return `user_${crypto.randomBytes(6).toString('hex')}`;
}
