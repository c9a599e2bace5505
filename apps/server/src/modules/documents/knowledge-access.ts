import { effectivePermissions } from '@aiplatform/contracts';
import type { Actor } from '../../policies/actor.js';
import { readsEveryGroup } from '../../policies/knowledge-bases.js';
import type { UsersRepo } from '../users/users.repo.js';
import type { KnowledgeBasesRepo, KnowledgeReader } from './knowledge-bases.repo.js';

/** Whose knowledge bases an actor reads, in the repo's terms. */
export function readerOf(actor: Actor): KnowledgeReader {
  return { userId: actor.id, groupId: actor.group_id, everyGroup: readsEveryGroup(actor) };
}

/**
 * What other areas ask of knowledge bases by user id: the chat (which knowledge bases a
 * conversation may search) and files (a document of a knowledge base is readable by its
 * readers). The user's role, group and permissions are read afresh, so a move to another
 * group takes effect at once.
 */
export class KnowledgeAccess {
  constructor(
    private readonly repo: KnowledgeBasesRepo,
    private readonly users: Pick<UsersRepo, 'findWithGroupById' | 'grantedPermissions'>,
  ) {}

  private async reader(userId: number): Promise<KnowledgeReader | undefined> {
    const user = await this.users.findWithGroupById(userId);
    if (!user) return undefined;
    const permissions = effectivePermissions(user.role, await this.users.grantedPermissions(userId));
    return readerOf({ id: user.id, username: user.username, role: user.role, group_id: user.group_id, permissions });
  }

  /** True when the file is a document of a knowledge base the user may read. */
  async canReadFile(userId: number, fileId: string): Promise<boolean> {
    const reader = await this.reader(userId);
    return reader !== undefined && this.repo.fileReadableThroughBase(reader, fileId);
  }

  /** The ids among these the user may read, in the order given, without repeats. */
  async readableKnowledgeBaseIds(userId: number, ids: readonly number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const reader = await this.reader(userId);
    if (!reader) return [];
    const readable = new Set(await this.repo.readableIds(reader, unique));
    return unique.filter((id) => readable.has(id));
  }
}
