import { z } from 'zod';
import { ROW_ID_MAX } from './pagination.js';

/**
 * Models and modules are catalog items granted to groups: `group_ids` lists the groups an
 * item is for, and an empty list means every group. Both kinds take and answer the same shape.
 */
export const GroupIdsSchema = z
  .array(z.number().int().min(1).max(ROW_ID_MAX), { error: 'validation.groupIds.invalid' })
  .max(1000, 'validation.groupIds.invalid');

/** PUT …/:id/groups: replaces the item's groups. */
export const GroupIdsBodySchema = z.object({ group_ids: GroupIdsSchema });
export const GroupIdsResultSchema = z.object({ group_ids: z.array(z.number()) });
