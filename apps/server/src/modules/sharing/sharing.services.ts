import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import type { ChatServices } from '../chat/chat.services.js';
import { ConversationsRepo } from '../chat/conversations.repo.js';
import { MessagesRepo } from '../chat/messages.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import { ShareLinksRepo } from './share-links.repo.js';
import { ShareLinksService } from './share-links.service.js';

/** Wires share links: they read conversations through the chat's repos and copy them through its import. */
export function createSharingService(d: {
  db: Kysely<Database>;
  /** The chat's models (display names) and its import of conversations (continuing a snapshot). */
  chat: Pick<ChatServices, 'models' | 'imports'>;
  settings: SettingsService;
  /** Sharing and revoking are written with their audit rows. */
  tx: AdminTransactions;
  clock: Clock;
  publicUrl: string | undefined;
}): ShareLinksService {
  return new ShareLinksService({
    repo: new ShareLinksRepo(d.db),
    conversations: new ConversationsRepo(d.db),
    messages: new MessagesRepo(d.db),
    models: d.chat.models,
    settings: d.settings,
    imports: d.chat.imports,
    tx: d.tx,
    clock: d.clock,
    publicUrl: d.publicUrl,
  });
}
