import type { CreditsStats, SiteConfig, User } from '@aiplatform/contracts';
import type { UserRow } from '../../db/types.js';
import type { Settings } from '@aiplatform/contracts';
import type { UserWithGroup } from './users.repo.js';

const DAY_MS = 86_400_000;

/** Balance and expiry as the client shows them; balance = quota − used. */
export function toCreditsStats(
  user: Pick<UserRow, 'credits_quota' | 'credits_used' | 'credits_expire_at'>,
  now: Date,
): CreditsStats {
  const remaining = user.credits_quota - user.credits_used;
  const expireAt = user.credits_expire_at;
  const msLeft = expireAt ? new Date(expireAt).getTime() - now.getTime() : null;
  return {
    quota: user.credits_quota,
    used: user.credits_used,
    remaining,
    usageRate: user.credits_quota > 0 ? Math.round((user.credits_used / user.credits_quota) * 10000) / 100 : 0,
    isExpired: msLeft !== null && msLeft <= 0,
    expireAt,
    remainingDays: msLeft === null ? null : Math.max(0, Math.ceil(msLeft / DAY_MS)),
  };
}

export function toUserDto(user: UserWithGroup, now: Date): User {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    phone: user.phone,
    role: user.role,
    status: user.status,
    group_id: user.group_id,
    group_name: user.group_name,
    group_color: user.group_color,
    avatar_url: user.avatar_url,
    created_at: user.created_at,
    last_login_at: user.last_login_at,
    token_quota: user.token_quota,
    token_used: user.token_used,
    credits_stats: toCreditsStats(user, now),
  };
}

/** The site identity the user sees: the group's override when it is switched on. */
export function toSiteConfig(user: UserWithGroup, settings: Settings): SiteConfig {
  const groupOn = user.group_site_config_enabled === 1;
  return {
    name: (groupOn && user.group_site_name) || settings.site.name,
    logo: (groupOn && user.group_site_logo) || settings.site.logo,
    description: settings.site.description,
    favicon: settings.site.favicon,
    is_group_config: groupOn && !!(user.group_site_name || user.group_site_logo),
  };
}
