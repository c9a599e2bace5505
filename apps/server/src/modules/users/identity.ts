import { AppError } from '../../lib/http/errors.js';
import type { UsersRepo } from './users.repo.js';
import type { Db } from '../../db/types.js';

/**
 * Refuses an email, username or phone that belongs to another account. The unique
 * indexes still stand behind this check for the race between two registrations.
 */
export async function assertIdentityFree(
  users: UsersRepo,
  fields: { email?: string; username?: string; phone?: string | null },
  ownUserId?: number,
  db?: Db,
): Promise<void> {
  const taken = (row: { id: number } | undefined) => !!row && row.id !== ownUserId;
  if (fields.email && taken(await users.findByEmail(fields.email, db))) throw new AppError('CONFLICT_EMAIL');
  if (fields.username && taken(await users.findByUsername(fields.username, db)))
    throw new AppError('CONFLICT_USERNAME');
  if (fields.phone && taken(await users.findByPhone(fields.phone, db))) throw new AppError('CONFLICT_PHONE');
}

/** Maps a unique-index violation (both dialects) onto the matching conflict code. */
export function conflictFromDbError(err: unknown): AppError | undefined {
  const text = err instanceof Error ? `${err.message} ${(err as { constraint?: string }).constraint ?? ''}` : '';
  if (!/unique|duplicate/i.test(text)) return undefined;
  if (/email/i.test(text)) return new AppError('CONFLICT_EMAIL');
  if (/username/i.test(text)) return new AppError('CONFLICT_USERNAME');
  if (/phone/i.test(text)) return new AppError('CONFLICT_PHONE');
  return undefined;
}
