import type { Group } from '@aiplatform/contracts';
import type { GroupRow } from '../../db/types.js';
import { groupAbilities } from '../../policies/abilities.js';
import type { Actor } from '../../policies/actor.js';
import type { GroupWithStats } from './groups.repo.js';

/** A group as `actor` sees it: its fields, member figures and what the policy lets `actor` do to it. */
export function toGroup(actor: Actor, g: GroupWithStats, permissions: readonly string[]): Group {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    color: g.color,
    sort_order: g.sort_order,
    status: g.status,
    user_count: g.user_count,
    user_limit: g.user_limit,
    retention_days: g.retention_days,
    credits_pool: g.credits_pool,
    credits_pool_used: g.credits_pool_used,
    credits_pool_remaining: g.credits_pool - g.credits_pool_used,
    site_name: g.site_name,
    site_logo: g.site_logo,
    site_config_enabled: g.site_config_enabled === 1,
    avg_credits_used: g.avg_credits_used,
    avg_tokens_used: g.avg_tokens_used,
    created_at: g.created_at,
    permissions: [...permissions].sort(),
    abilities: groupAbilities(actor, g.id),
  };
}

/** The group fields an audit row compares (with its granted permissions when given). */
export function groupSnapshot(g: GroupRow, permissions?: readonly string[]): Record<string, unknown> {
  return {
    name: g.name,
    description: g.description,
    color: g.color,
    sort_order: g.sort_order,
    status: g.status,
    user_limit: g.user_limit,
    retention_days: g.retention_days,
    credits_pool: g.credits_pool,
    credits_pool_used: g.credits_pool_used,
    site_name: g.site_name,
    site_logo: g.site_logo,
    site_config_enabled: g.site_config_enabled === 1,
    ...(permissions ? { permissions: [...permissions].sort() } : {}),
  };
}
