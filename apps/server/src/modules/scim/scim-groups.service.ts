import type { AdminContext } from '../../policies/actor.js';
import type { GroupsService } from '../groups/groups.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { AdminUsersService } from '../users/admin-users.service.js';
import { GROUP_SCHEMA, listResponse } from './scim-discovery.js';
import { ScimError, invalidValue } from './scim-errors.js';
import { type PatchOperation, type ScimJson, applyPatch, isObject } from './scim-patch.js';
import { type Paging, equalityFilter } from './scim-query.js';
import type { ScimGroupRow, ScimMember, ScimRepo } from './scim.repo.js';

export interface ScimGroupsDeps {
  repo: ScimRepo;
  groups: GroupsService;
  adminUsers: AdminUsersService;
  settings: SettingsService;
}

const GROUP_FILTERS = new Set(['displayname', 'id', 'members', 'members.value']);
/** The most users one bulk move takes (the administrators' bulk call's own limit). */
const MOVE_BATCH = 500;
const noGroup = () => new ScimError(404, 'Group not found', 'noTarget');

/**
 * /Groups: this platform's groups, matched by name. A person belongs to exactly one group, so
 * adding a member moves them here from wherever they were, and removing one moves them back
 * to the default group, each through the administrators' bulk move (its rules and audit rows).
 */
export class ScimGroupsService {
  constructor(private readonly d: ScimGroupsDeps) {}

  async list(filter: string | undefined, page: Paging, withMembers: boolean, base: string) {
    const f = equalityFilter(filter, GROUP_FILTERS);
    const { rows, total } = await this.d.repo.findGroups(f, page.startIndex - 1, page.count);
    const members = withMembers ? await this.d.repo.membersOf(rows.map((r) => r.id)) : [];
    return listResponse(
      rows.map((g) => toScimGroup(g, withMembers ? members.filter((m) => m.group_id === g.id) : undefined, base)),
      total,
      page.startIndex,
    );
  }

  async get(id: string, withMembers: boolean, base: string): Promise<ScimJson> {
    const group = await this.existing(id);
    return toScimGroup(group, withMembers ? await this.d.repo.membersOf([group.id]) : undefined, base);
  }

  async create(ctx: AdminContext, body: unknown, base: string): Promise<ScimJson> {
    const input = readGroupInput(body);
    const { id } = await this.d.groups.create(ctx, { name: input.displayName });
    await this.moveTo(ctx, id, await this.unpinned(await this.liveIds(input.memberIds ?? [])));
    return this.get(String(id), true, base);
  }

  /** PUT: the group's name and its whole member list. */
  async replace(ctx: AdminContext, id: string, body: unknown, base: string): Promise<ScimJson> {
    const group = await this.existing(id);
    await this.apply(ctx, group, readGroupInput(body));
    return this.get(id, true, base);
  }

  async patch(ctx: AdminContext, id: string, ops: PatchOperation[], base: string): Promise<ScimJson> {
    const group = await this.existing(id);
    const resource = structuredClone(toScimGroup(group, await this.d.repo.membersOf([group.id]), base));
    applyPatch(resource, ops);
    await this.apply(ctx, group, readGroupInput(resource));
    return this.get(id, true, base);
  }

  /** DELETE: its members go back to the default group first, as the group's deletion requires. */
  async remove(ctx: AdminContext, id: string): Promise<void> {
    const group = await this.existing(id);
    const members = await this.d.repo.membersOf([group.id]);
    await this.moveTo(
      ctx,
      await this.defaultGroupId(),
      members.map((m) => m.id),
    );
    await this.d.groups.remove(ctx, group.id);
  }

  private async apply(ctx: AdminContext, group: ScimGroupRow, input: GroupInput): Promise<void> {
    if (input.displayName !== group.name) await this.d.groups.update(ctx, group.id, { name: input.displayName });
    if (input.memberIds === undefined) return;
    const current = new Set((await this.d.repo.membersOf([group.id])).map((m) => m.id));
    const wanted = new Set(await this.liveIds(input.memberIds));
    await this.moveTo(ctx, group.id, await this.unpinned([...wanted].filter((u) => !current.has(u))));
    const defaultGroup = await this.defaultGroupId();
    if (defaultGroup !== group.id) {
      await this.moveTo(ctx, defaultGroup, await this.unpinned([...current].filter((u) => !wanted.has(u))));
    }
  }

  /**
   * Leaves out the accounts whose group an administrator pinned: the directory does not move
   * them, by SCIM as by sign-in. (Deleting their group still moves them: it cannot hold them.)
   */
  private async unpinned(ids: number[]): Promise<number[]> {
    const pinned = await this.d.repo.pinnedAmong(ids);
    return ids.filter((id) => !pinned.has(id));
  }

  private async moveTo(ctx: AdminContext, groupId: number, ids: number[]): Promise<void> {
    for (let i = 0; i < ids.length; i += MOVE_BATCH) {
      await this.d.adminUsers.bulk(ctx, { action: 'move', ids: ids.slice(i, i + MOVE_BATCH), group_id: groupId });
    }
  }

  /** The accounts the member values name; a member that is no account is refused, not skipped. */
  private async liveIds(memberIds: string[]): Promise<number[]> {
    const live = await this.d.repo.liveUserIds(memberIds);
    const unknown = memberIds.find((v) => !live.has(v));
    if (unknown !== undefined) throw invalidValue(`No user has the id "${unknown}"`);
    return [...new Set(live.values())];
  }

  private async defaultGroupId(): Promise<number> {
    return (await this.d.settings.getSettings()).user.default_group_id;
  }

  private async existing(id: string): Promise<ScimGroupRow> {
    const group = await this.d.repo.findGroup(id);
    if (!group) throw noGroup();
    return group;
  }
}

interface GroupInput {
  displayName: string;
  /** Absent when the body names no members: a PUT without them leaves the membership alone. */
  memberIds?: string[];
}

function readGroupInput(body: unknown): GroupInput {
  if (!isObject(body)) throw invalidValue('A Group object is required');
  const key = (name: string) => Object.keys(body).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;
  const displayName = body[key('displayName')];
  if (typeof displayName !== 'string' || displayName.trim() === '' || displayName.length > 100) {
    throw invalidValue('displayName is required (at most 100 characters)');
  }
  const members = body[key('members')];
  if (members !== undefined && members !== null && !Array.isArray(members))
    throw invalidValue('members must be a list');
  if (members === undefined) return { displayName: displayName.trim() };
  const memberIds = (members ?? []).map((m: unknown) => {
    const value = isObject(m) ? m[Object.keys(m).find((k) => k.toLowerCase() === 'value') ?? 'value'] : undefined;
    if (typeof value !== 'string' && typeof value !== 'number') throw invalidValue('Each member needs a value');
    return String(value);
  });
  return { displayName: displayName.trim(), memberIds };
}

function toScimGroup(g: ScimGroupRow, members: ScimMember[] | undefined, base: string): ScimJson {
  return {
    schemas: [GROUP_SCHEMA],
    id: String(g.id),
    displayName: g.name,
    ...(members
      ? { members: members.map((m) => ({ value: String(m.id), display: m.username, $ref: `${base}/Users/${m.id}` })) }
      : {}),
    meta: {
      resourceType: 'Group',
      created: g.created_at,
      lastModified: g.updated_at,
      location: `${base}/Groups/${g.id}`,
    },
  };
}
