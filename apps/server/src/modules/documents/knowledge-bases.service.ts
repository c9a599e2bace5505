import type {
  CreateKnowledgeBaseBody,
  KnowledgeBase,
  KnowledgeDocument,
  UpdateKnowledgeBaseBody,
} from '@aiplatform/contracts';
import { AppError, InputError, notFound } from '../../lib/http/errors.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { Actor } from '../../policies/actor.js';
import {
  canChangeKnowledgeBase,
  canCreateGroupKnowledgeBase,
  canReadKnowledgeBase,
} from '../../policies/knowledge-bases.js';
import { readerOf } from './knowledge-access.js';
import type { KnowledgeBaseRow, KnowledgeBasesRepo } from './knowledge-bases.repo.js';
import { toKnowledgeBase, toKnowledgeDocument } from './knowledge-bases.presenter.js';

/**
 * Knowledge bases: personal ones, and a group's, which its members read and its
 * administrators (and super administrators) curate. One out of the caller's sight is not
 * found; one they read but may not change answers 403 to a change.
 */
export class KnowledgeBasesService {
  constructor(
    private readonly repo: KnowledgeBasesRepo,
    private readonly clock: Clock,
  ) {}

  private async readable(actor: Actor, id: number): Promise<KnowledgeBaseRow> {
    const kb = await this.repo.find(id);
    if (!kb || !canReadKnowledgeBase(actor, kb)) throw notFound();
    return kb;
  }

  private async changeable(actor: Actor, id: number): Promise<KnowledgeBaseRow> {
    const kb = await this.readable(actor, id);
    if (!canChangeKnowledgeBase(actor, kb)) throw new AppError('FORBIDDEN');
    return kb;
  }

  async list(actor: Actor): Promise<KnowledgeBase[]> {
    return (await this.repo.listReadable(readerOf(actor))).map((kb) => toKnowledgeBase(actor, kb));
  }

  async get(actor: Actor, id: number): Promise<KnowledgeBase> {
    return toKnowledgeBase(actor, await this.readable(actor, id));
  }

  /**
   * A personal one is the caller's. A group one belongs to the caller's group, or to
   * `group_id` for whoever manages other groups; making one needs the right to change it.
   */
  async create(actor: Actor, body: CreateKnowledgeBaseBody): Promise<KnowledgeBase> {
    let groupId: number | null = null;
    if (body.scope === 'group') {
      const wanted = body.group_id ?? actor.group_id;
      if (wanted === null) throw new AppError('FORBIDDEN');
      if (!canCreateGroupKnowledgeBase(actor, wanted)) {
        // Someone who may make their own group's hears nothing about other groups.
        if (actor.group_id !== null && canCreateGroupKnowledgeBase(actor, actor.group_id)) throw notFound();
        throw new AppError('FORBIDDEN');
      }
      if (!(await this.repo.groupExists(wanted))) throw notFound();
      groupId = wanted;
    }
    const now = this.clock.now().toISOString();
    const id = await this.repo.insert({
      name: body.name,
      description: body.description,
      scope: body.scope,
      user_id: actor.id,
      group_id: groupId,
      created_at: now,
      updated_at: now,
    });
    return this.get(actor, id);
  }

  async update(actor: Actor, id: number, body: UpdateKnowledgeBaseBody): Promise<KnowledgeBase> {
    await this.changeable(actor, id);
    await this.repo.update(id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      updated_at: this.clock.now().toISOString(),
    });
    return this.get(actor, id);
  }

  /** Its documents stay their owners' files; conversations stop searching it. */
  async remove(actor: Actor, id: number): Promise<{ deleted: boolean }> {
    await this.changeable(actor, id);
    return { deleted: await this.repo.remove(id) };
  }

  async documents(actor: Actor, id: number): Promise<KnowledgeDocument[]> {
    await this.readable(actor, id);
    return (await this.repo.documents(id)).map(toKnowledgeDocument);
  }

  /**
   * Adds one of the caller's own documents (one still being read is searched once ready);
   * someone else's file is not found, an image is refused.
   */
  async addDocument(actor: Actor, id: number, fileId: string): Promise<KnowledgeDocument> {
    await this.changeable(actor, id);
    const file = await this.repo.ownedFile(fileId, actor.id);
    if (!file) throw notFound();
    if (file.kind !== 'document') throw new InputError(['validation.knowledgeBase.notDocument']);
    const addedAt = await this.repo.addDocument(id, fileId, this.clock.now().toISOString());
    if (addedAt === null) throw notFound();
    return toKnowledgeDocument({ ...file, added_at: addedAt });
  }

  /** The document is out of the knowledge base's searches from this moment; the file stays. */
  async removeDocument(actor: Actor, id: number, fileId: string): Promise<{ deleted: boolean }> {
    await this.changeable(actor, id);
    if (!(await this.repo.removeDocument(id, fileId, this.clock.now().toISOString()))) throw notFound();
    return { deleted: true };
  }
}
