import crypto from 'node:crypto';
import {
  type Conversation,
  type CreateShareBody,
  SHARE_LIMITS,
  type ShareCreated,
  type ShareLink,
  type SharedConversation,
} from '@aiplatform/contracts';
import type { UserRow } from '../../db/types.js';
import { AppError, InputError, notFound } from '../../lib/http/errors.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { AdminContext } from '../../policies/actor.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import type { ConversationImport } from '../chat/conversation-import.js';
import type { ConversationsRepo } from '../chat/conversations.repo.js';
import type { MessagesRepo } from '../chat/messages.repo.js';
import type { ModelsService } from '../models/models.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { ListedShareLink, ShareLinksRepo } from './share-links.repo.js';
import { modelNamesOf, parseSnapshot, takeSnapshot } from './share-snapshot.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A token's stored form: only its SHA-256 is kept, so a copy of the database opens no link. */
export const hashShareToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** Who reads a link: a signed-in member, or a visitor (null). */
export type ShareReader = UserRow | null;

/**
 * Share links: a snapshot of a conversation's branch shown, readable through a random token
 * by signed-in members, and by anyone when the link is public and the site allows public
 * links. Unreadable links (unknown, revoked, expired, not public) are simply not found.
 */
export class ShareLinksService {
  constructor(
    private readonly d: {
      repo: ShareLinksRepo;
      conversations: ConversationsRepo;
      messages: MessagesRepo;
      models: ModelsService;
      settings: SettingsService;
      imports: ConversationImport;
      tx: AdminTransactions;
      clock: Clock;
      /** The site's public address, when configured: links are then absolute. */
      publicUrl: string | undefined;
    },
  ) {}

  /**
   * Shares the caller's conversation as it is now (another user's is not found). A public
   * link is refused while the site does not allow public links; the expiry must lie ahead,
   * at most SHARE_LIMITS.maxExpiryDays. The token is answered only here.
   */
  async create(ctx: AdminContext, conversationId: string, body: CreateShareBody): Promise<ShareCreated> {
    const userId = ctx.actor.id;
    const now = this.d.clock.now();
    const expiresAt = this.expiry(body.expires_at ?? null, now);
    const isPublic = body.public === true;
    if (isPublic && !(await this.d.settings.getSettings()).sharing.public_links) {
      throw new InputError(['validation.share.publicOff']);
    }
    const conversation = await this.d.conversations.findOwned(conversationId, userId);
    if (!conversation) throw notFound();
    const rows = await this.d.messages.listFor(conversationId);
    const names = modelNamesOf(conversation, rows);
    const displayNames = new Map(
      await Promise.all(names.map(async (n) => [n, await this.d.models.displayName(n)] as const)),
    );
    const snapshot = takeSnapshot(conversation, rows, displayNames);
    const token = crypto.randomBytes(32).toString('base64url');
    const id = await this.d.tx.run(ctx, async (trx, at) => {
      const inserted = await this.d.repo.insertWithinLimit(
        trx,
        {
          token_hash: hashShareToken(token),
          user_id: userId,
          conversation_id: conversation.id,
          title: conversation.title,
          model_name: conversation.model_name,
          snapshot: JSON.stringify(snapshot),
          is_public: isPublic ? 1 : 0,
          expires_at: expiresAt,
          created_at: at,
        },
        SHARE_LIMITS.liveLinksPerUser,
      );
      if (inserted === null) throw new AppError('SHARE_LIMIT_REACHED', { max: SHARE_LIMITS.liveLinksPerUser });
      return {
        result: inserted,
        audit: {
          action: 'share.create',
          targetType: 'share_link',
          targetId: inserted,
          after: {
            conversation_id: conversation.id,
            public: isPublic,
            expires_at: expiresAt,
            messages: snapshot.messages.length,
          },
        },
      };
    });
    const path = `/share/${token}`;
    return { id, token, url: this.d.publicUrl ? `${this.d.publicUrl}${path}` : path };
  }

  private expiry(value: string | null, now: Date): string | null {
    if (value === null) return null;
    const at = new Date(value).getTime();
    if (!(at > now.getTime()) || at > now.getTime() + SHARE_LIMITS.maxExpiryDays * DAY_MS) {
      throw new InputError(['validation.share.expiresAt']);
    }
    return new Date(at).toISOString();
  }

  /** The caller's links, newest first, with their visits and state. */
  async list(userId: number): Promise<ShareLink[]> {
    return (await this.d.repo.listOf(userId)).map(toShareLink);
  }

  /** Revokes one of the caller's links (another user's is not found); revoking twice changes nothing. */
  async revoke(ctx: AdminContext, id: number): Promise<ShareLink> {
    const userId = ctx.actor.id;
    return this.d.tx.run(ctx, async (trx, now) => {
      const link = await this.d.repo.findOwned(trx, id, userId);
      if (!link) throw notFound();
      const revoked = await this.d.repo.revoke(trx, id, userId, now);
      const after = (await this.d.repo.findOwned(trx, id, userId)) ?? link;
      return {
        result: toShareLink(after),
        audit: revoked
          ? {
              action: 'share.revoke',
              targetType: 'share_link',
              targetId: id,
              before: { revoked: false },
              after: { revoked: true },
            }
          : [],
      };
    });
  }

  /** The snapshot behind a token, for a member or (public links, where allowed) a visitor; counts the visit. */
  async read(token: string, reader: ShareReader): Promise<SharedConversation> {
    const link = await this.readable(token, reader);
    await this.d.repo.countVisit(link.id);
    const snapshot = parseSnapshot(link.snapshot);
    return {
      title: link.title,
      model_name: link.model_name,
      model_display_name: snapshot.model_display_name || link.model_name,
      shared_at: link.created_at,
      public: link.is_public === 1,
      messages: snapshot.messages.map(({ model_name: _model, ...m }) => m),
    };
  }

  /**
   * Copies a readable snapshot into a new conversation of the caller, on the snapshot's
   * model when the caller may use it, else the site's default. Nothing is charged.
   */
  async continueInto(token: string, user: UserRow): Promise<Conversation> {
    const link = await this.readable(token, user);
    const snapshot = parseSnapshot(link.snapshot);
    return this.d.imports.importConversation(user, {
      title: link.title,
      preferredModel: link.model_name,
      messages: snapshot.messages.map((m) => ({
        role: m.role,
        content: m.content,
        model_name: m.model_name,
        stopped: m.stopped,
        citations: m.citations.length > 0 ? JSON.stringify(m.citations) : null,
      })),
    });
  }

  private async readable(token: string, reader: ShareReader) {
    const link = await this.d.repo.findReadable(hashShareToken(token), this.d.clock.now().toISOString());
    if (!link) throw notFound();
    if (reader) return link;
    // A visitor: only a public link, and only while the site allows them (switching it off hides them again).
    if (link.is_public !== 1 || !(await this.d.settings.getSettings()).sharing.public_links) throw notFound();
    return link;
  }
}

function toShareLink(l: ListedShareLink): ShareLink {
  return {
    id: l.id,
    conversation_id: l.conversation_id,
    title: l.title,
    created_at: l.created_at,
    expires_at: l.expires_at,
    public: l.is_public === 1,
    visits: Number(l.visits),
    revoked: l.revoked_at !== null,
    revoked_at: l.revoked_at,
  };
}
