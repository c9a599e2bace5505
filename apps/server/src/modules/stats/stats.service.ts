import {
  type RealtimeStats,
  type StatsOverviewQuery,
  type UsageOverview,
  type UserCreditsStats,
  scopeOf,
} from '@aiplatform/contracts';
import type { UserRow } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { type Actor } from '../../policies/actor.js';
import { authorize, listScope } from '../../policies/policy.js';
import type { SettingsService } from '../settings/settings.service.js';
import { toCreditsStats } from '../users/user.presenter.js';
import type { UsersRepo } from '../users/users.repo.js';
import type { Presence } from './presence.js';
import { type StatsCalendar, daysBetween } from './stats-calendar.js';
import { type UsageRange, type UsageStatsRepo, type UsageSums, accumulate } from './usage-stats.repo.js';

const POPULAR_MODELS = 5;
const TOP_USERS = 10;

/** Dashboard and administrator statistics, all read from the usage rollups and presence. */
export class StatsService {
  constructor(
    private readonly usage: UsageStatsRepo,
    private readonly users: UsersRepo,
    private readonly presence: Presence,
    private readonly calendar: StatsCalendar,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
  ) {}

  heartbeat(userId: number): void {
    this.presence.beat(userId);
  }

  async userCredits(user: UserRow): Promise<UserCreditsStats> {
    const withGroup = await this.users.findWithGroupById(user.id);
    const u = withGroup ?? { ...user, group_name: null, group_color: null };
    const { to: today } = await this.calendar.range(1);
    const [rows, settings] = await Promise.all([this.usage.ofUser(user.id, today, today), this.settings.getSettings()]);
    const c = toCreditsStats(u, this.clock.now());
    const threshold = settings.stats.low_credits_threshold;
    return {
      group_name: u.group_name,
      group_color: u.group_color,
      credits_total: c.quota,
      credits_used: c.used,
      credits_remaining: c.remaining,
      today_consumed: rows.reduce((s, r) => s + r.credits, 0),
      is_expired: c.isExpired,
      remaining_days: c.remainingDays,
      expire_at: c.expireAt,
      low_credits_threshold: threshold,
      is_low: threshold > 0 && c.remaining < threshold,
    };
  }

  /**
   * The dashboard's live figures, in the viewer's scope: those who read the statistics of
   * the whole platform see the site, a group administrator their group, anyone else their
   * own activity (never the platform's, which is not theirs to see).
   */
  async realtime(actor: Actor): Promise<RealtimeStats> {
    const { to: today } = await this.calendar.range(1);
    const scope = scopeOf(actor.permissions, 'stats.read');
    if (scope === 'none' || (scope === 'group' && actor.group_id === null)) return this.ownRealtime(actor.id, today);
    const range = { from: today, to: today, ...(scope === 'group' ? { groupId: actor.group_id! } : {}) };
    const [online, totals, active, totalUsers] = await Promise.all([
      scope === 'all' ? this.presence.countOnline() : this.onlineMembers(actor.group_id!),
      this.usage.totals(range),
      this.usage.activeUsersByDay(range),
      this.usage.countUsers(range.groupId),
    ]);
    const t = totals.byDay.get(today);
    const popular = await this.named(ranked(totals.byModel).slice(0, POPULAR_MODELS));
    return {
      scope: scope === 'all' ? 'site' : 'group',
      online_users: online,
      today_active_users: active.get(today) ?? 0,
      today_messages: t?.messages ?? 0,
      today_tokens: t?.tokens ?? 0,
      today_conversations: t?.conversations ?? 0,
      total_users: totalUsers,
      // A turn is two messages: the question and its answer.
      popular_models: popular.map((m) => ({
        model_name: m.model,
        display_name: m.displayName,
        usage_count: m.messages / 2,
      })),
      timestamp: this.clock.now().toISOString(),
    };
  }

  /**
   * How many of a group's members are online. The online users are matched against the
   * group's member ids here rather than sent to the database as a list: a big site has
   * more of them online than a statement may carry parameters (PostgreSQL 65,535, SQLite
   * 32,766). Reading the members costs one indexed query the size of the group.
   */
  private async onlineMembers(groupId: number): Promise<number> {
    const [online, members] = await Promise.all([this.presence.onlineUserIds(), this.usage.liveMemberIds(groupId)]);
    const onlineIds = new Set(online);
    return members.reduce((count, id) => count + (onlineIds.has(id) ? 1 : 0), 0);
  }

  /** One user's figures of today: the viewer is the one online, active if they chatted. */
  private async ownRealtime(userId: number, today: string): Promise<RealtimeStats> {
    const rows = await this.usage.ofUser(userId, today, today);
    const perModel = new Map<string, UsageSums>();
    for (const r of rows) accumulate(perModel, r.model, r);
    const sum = (k: keyof UsageSums) => rows.reduce((s, r) => s + r[k], 0);
    const displayNames = await this.usage.modelDisplayNames([...perModel.keys()]);
    return {
      scope: 'user',
      online_users: 1,
      today_active_users: sum('messages') > 0 ? 1 : 0,
      today_messages: sum('messages'),
      today_tokens: sum('tokens'),
      today_conversations: sum('conversations'),
      total_users: 1,
      popular_models: [...perModel]
        .filter(([, s]) => s.messages > 0)
        .sort(([a, x], [b, y]) => y.messages - x.messages || a.localeCompare(b))
        .slice(0, POPULAR_MODELS)
        .map(([model, s]) => ({
          model_name: model,
          display_name: displayNames.get(model) || model,
          usage_count: s.messages / 2,
        })),
      timestamp: this.clock.now().toISOString(),
    };
  }

  /** The signed-in user's own usage: per day and per model. */
  async mine(userId: number, days: number): Promise<UsageOverview> {
    const { timeZone, from, to } = await this.calendar.range(days);
    const rows = await this.usage.ofUser(userId, from, to);
    const perDay = new Map<string, UsageSums>();
    const perModel = new Map<string, UsageSums>();
    for (const r of rows) {
      accumulate(perDay, r.day, r);
      accumulate(perModel, r.model, r);
    }
    const active = new Map([...perDay].filter(([, s]) => s.messages > 0).map(([d]) => [d, 1]));
    const displayNames = await this.usage.modelDisplayNames([...perModel.keys()]);
    const models = [...perModel]
      .map(([model, s]) => ({ model, displayName: displayNames.get(model) || model, ...s }))
      .filter((m) => m.messages > 0);
    return this.overview({ timeZone, from, to }, perDay, active, models, [], []);
  }

  /** Usage of the platform, or of one group; a group administrator always gets their own group. */
  async adminOverview(actor: Actor, query: StatsOverviewQuery): Promise<UsageOverview> {
    const range = await this.scopedRange(actor, query);
    const [totals, active, users, api, keys] = await Promise.all([
      this.usage.totals(range),
      this.usage.activeUsersByDay(range),
      this.usage.byUser(range),
      this.usage.apiTotals(range),
      this.usage.apiByKey(range, TOP_USERS),
    ]);
    const top = [...users]
      .sort((a, b) => b.credits - a.credits || b.messages - a.messages || a.userId - b.userId)
      .slice(0, TOP_USERS);
    // byUser has one row per (user, group): counting rows per group counts distinct users.
    const activeInGroup = new Map<number, number>();
    for (const u of users) activeInGroup.set(u.groupId, (activeInGroup.get(u.groupId) ?? 0) + 1);
    const groups = [...totals.byGroup].map(([groupId, sums]) => ({ groupId, ...sums }));
    const [models, names, groupInfo] = await Promise.all([
      this.named(ranked(totals.byModel)),
      this.usage.namesOfUsers([...new Set(top.map((u) => u.userId))]),
      this.usage.groupsById(groups.map((g) => g.groupId).filter((id) => id > 0)),
    ]);
    const overview = this.overview(
      range,
      totals.byDay,
      active,
      models,
      groups
        .filter((g) => g.messages > 0)
        .sort((a, b) => b.credits - a.credits || b.messages - a.messages)
        .map((g) => ({
          group_id: g.groupId > 0 ? g.groupId : null,
          group_name: groupInfo.get(g.groupId)?.name ?? null,
          group_color: groupInfo.get(g.groupId)?.color ?? null,
          messages: g.messages,
          tokens: g.tokens,
          credits: g.credits,
          active_users: activeInGroup.get(g.groupId) ?? 0,
        })),
      top.map((u) => ({
        user_id: u.userId,
        username: names.get(u.userId) ?? String(u.userId),
        messages: u.messages,
        tokens: u.tokens,
        credits: u.credits,
      })),
    );
    overview.totals.active_users = new Set(users.map((u) => u.userId)).size;
    // The totals count both; the API's share is rolled up apart, per key.
    overview.sources = {
      ui: { tokens: overview.totals.tokens - api.tokens, credits: overview.totals.credits - api.credits },
      api,
    };
    const keyNames = await this.usage.apiKeyNames(keys.map((k) => k.apiKeyId));
    overview.api_keys = keys.map((k) => ({
      api_key_id: k.apiKeyId,
      key_name: keyNames.get(k.apiKeyId) ?? null,
      user_id: k.userId,
      username: k.username,
      requests: k.requests,
      tokens: k.tokens,
      credits: k.credits,
    }));
    return overview;
  }

  /** Models with their display names; a deleted model keeps its bare name. */
  private async named(models: Array<{ model: string } & UsageSums>) {
    const display = await this.usage.modelDisplayNames(models.map((m) => m.model));
    return models.map((m) => ({ ...m, displayName: display.get(m.model) || m.model }));
  }

  /** The range and group an administrator may see: NOT_FOUND for another group than their own. */
  async scopedRange(actor: Actor, query: StatsOverviewQuery): Promise<UsageRange & { timeZone: string }> {
    const scope = listScope(actor, 'stats.read');
    const { timeZone, from, to } = await this.calendar.range(query.days);
    if (scope.all) return { timeZone, from, to, ...(query.group_id !== undefined ? { groupId: query.group_id } : {}) };
    if (query.group_id !== undefined && query.group_id !== scope.groupId)
      authorize(actor, 'stats.read', { kind: 'group', id: query.group_id });
    return { timeZone, from, to, groupId: scope.groupId };
  }

  private overview(
    range: { timeZone: string; from: string; to: string },
    perDay: Map<string, UsageSums>,
    active: Map<string, number>,
    models: Array<{ model: string; displayName: string } & UsageSums>,
    groups: UsageOverview['groups'],
    topUsers: UsageOverview['top_users'],
  ): UsageOverview {
    const days = daysBetween(range.from, range.to).map((date) => {
      const s = perDay.get(date);
      return {
        date,
        messages: s?.messages ?? 0,
        tokens: s?.tokens ?? 0,
        credits: s?.credits ?? 0,
        conversations: s?.conversations ?? 0,
        active_users: active.get(date) ?? 0,
      };
    });
    const total = (k: keyof UsageSums) => days.reduce((s, d) => s + d[k], 0);
    return {
      time_zone: range.timeZone,
      from: range.from,
      to: range.to,
      totals: {
        messages: total('messages'),
        tokens: total('tokens'),
        credits: total('credits'),
        conversations: total('conversations'),
        active_users: days.some((d) => d.active_users > 0) ? 1 : 0,
      },
      days,
      models: models
        .filter((m) => m.messages > 0)
        .sort((a, b) => b.messages - a.messages || a.model.localeCompare(b.model))
        .map((m) => ({
          model_name: m.model,
          display_name: m.displayName,
          messages: m.messages,
          tokens: m.tokens,
          credits: m.credits,
        })),
      groups,
      top_users: topUsers,
    };
  }
}

/** Models that were used, most turns first (then by name, as the database orders names). */
function ranked(byModel: Map<string, UsageSums>): Array<{ model: string } & UsageSums> {
  return [...byModel]
    .filter(([, s]) => s.messages > 0)
    .sort(([a, x], [b, y]) => y.messages - x.messages || (a < b ? -1 : a > b ? 1 : 0))
    .map(([model, s]) => ({ model, ...s }));
}
