import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/types.js';
import type { ChangeBus } from '../../lib/data/change-bus.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { SecretBox } from '../../lib/auth/secret-box.js';
import { SignedImageUrls } from '../../lib/auth/signed-image-urls.js';
import type { CreditsRepo } from '../credits/credits.repo.js';
import { ModelsRepo } from '../models/models.repo.js';
import { ModelsService } from '../models/models.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UploadGate } from '../storage/upload-gate.js';
import type { UsersRepo } from '../users/users.repo.js';
import { StatsCalendar } from '../stats/stats-calendar.js';
import { ConversationKnowledge } from './conversation-knowledge.js';
import { ConversationKnowledgeRepo } from './conversation-knowledge.repo.js';
import { ConversationDocumentsRepo } from './conversation-documents.repo.js';
import { ConversationsRepo } from './conversations.repo.js';
import type { ChatDocumentSources } from './document-sources.js';
import { ConversationsService } from './conversations.service.js';
import { ConversationImport } from './conversation-import.js';
import { AnswerSweep } from './answer-sweep.js';
import { AnswerForwarding } from './answer-forwarding.js';
import { AnswerWatch } from './answer-watch.js';
import { FilesRepo } from './files.repo.js';
import { ImagesService } from './images.service.js';
import { MessageBranches } from './message-branches.js';
import { MessageFilesRepo } from './message-files.repo.js';
import { MessagesRepo } from './messages.repo.js';
import { LiveAnswers } from './live-answers.js';
import { ModelTitles } from './model-title.js';
import { TurnDocuments } from './send-documents.js';
import { SendService } from './send.service.js';
import { TurnAccounting } from './turn-accounting.js';

export interface ChatDeps {
  db: Kysely<Database>;
  users: UsersRepo;
  credits: CreditsRepo;
  settings: SettingsService;
  secret: string;
  clock: Clock;
  config: Pick<
    AppConfig,
    'dataDir' | 'upstreamTimeoutMs' | 'upstreamFirstByteTimeoutMs' | 'answerLeaseMs' | 'answersInProgressPerUser'
  >;
  log: FastifyBaseLogger;
  /** Stop requests and watched answers travel through it between instances. */
  changes: ChangeBus;
  /** The site's storage budget and per-address allowance every upload passes. */
  uploads: UploadGate;
  /** Documents' text, passage search and knowledge-base access, from the documents area. */
  documents: ChatDocumentSources;
}

/** Wires models and chat together; the composition root calls this once. */
export function createChatServices(d: ChatDeps) {
  const models = new ModelsService(new ModelsRepo(d.db), new SecretBox(d.secret), d.clock);
  const conversationsRepo = new ConversationsRepo(d.db);
  const messages = new MessagesRepo(d.db);
  const messageFiles = new MessageFilesRepo(d.db);
  const files = new FilesRepo(d.db);
  const knowledgeOf = new ConversationKnowledgeRepo(d.db);
  const images = new ImagesService(
    path.join(d.config.dataDir, 'uploads'),
    files,
    messageFiles,
    d.clock,
    new SignedImageUrls(d.secret, d.clock),
    d.uploads,
  );
  const branches = new MessageBranches(d.db, messages.tree, messageFiles);
  const calendar = new StatsCalendar(d.settings, d.clock);
  const accounting = new TurnAccounting(d.db, d.credits, messages, conversationsRepo, d.users, () =>
    calendar.timeZone(),
  );
  // The longest an answer can be written and then settled by the sweep if its instance died.
  const longestAnswerMs = d.config.upstreamTimeoutMs + 2 * d.config.answerLeaseMs + 60_000;
  const send = new SendService(
    conversationsRepo,
    messages,
    accounting,
    models,
    images,
    d.settings,
    d.clock,
    { firstByteMs: d.config.upstreamFirstByteTimeoutMs, totalMs: d.config.upstreamTimeoutMs },
    d.log,
    new ModelTitles(conversationsRepo),
    new LiveAnswers(messages, d.clock, d.log, d.config.answerLeaseMs),
    d.changes,
    new AnswerForwarding(d.changes),
    branches,
    d.config.answersInProgressPerUser,
    new TurnDocuments(files, knowledgeOf, new ConversationDocumentsRepo(d.db), d.documents),
  );
  return {
    models,
    // Settles turns left unfinished by an instance that went away.
    sweep: new AnswerSweep(accounting, d.clock, d.log, d.config.upstreamTimeoutMs, d.config.answerLeaseMs),
    images,
    conversations: new ConversationsService(
      d.db,
      conversationsRepo,
      messages,
      models,
      d.settings,
      d.users,
      d.clock,
      messageFiles,
      images,
      branches,
      accounting,
      // Deleting what an answer is being written into stops that answer first.
      (userId, conversationId) => send.stop(userId, conversationId),
      new ConversationKnowledge(knowledgeOf, d.documents.knowledge),
    ),
    send,
    /** New conversations from messages written elsewhere (share links' snapshots). */
    imports: new ConversationImport(d.db, conversationsRepo, messages, models, d.settings, d.clock),
    watch: new AnswerWatch(conversationsRepo, messages, branches, d.changes, d.clock, longestAnswerMs),
  };
}
export type ChatServices = ReturnType<typeof createChatServices>;
