import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from './config.js';
import type { Database } from './db/types.js';
import type { Guards } from './lib/auth/auth-guard.js';
import { type StatFsReader, diskSpaceCheck } from './lib/data/disk-space.js';
import type { KvStore } from './lib/data/kv-store.js';
import type { createAdminServices } from './modules/admin/admin.services.js';
import type { createAnnouncementsService } from './modules/announcements/announcements.services.js';
import type { ApiKeyServices } from './modules/api-keys/api-keys.services.js';
import type { ApiUsageServices } from './modules/api-usage/api-usage.services.js';
import type { createAuthServices } from './modules/auth/auth.services.js';
import type { createCapsServices } from './modules/caps/caps.services.js';
import type { createChatServices } from './modules/chat/chat.services.js';
import { MessageSearchRepo } from './modules/chat/message-search.repo.js';
import { MessageSearchService } from './modules/chat/message-search.service.js';
import type { createDocumentServices } from './modules/documents/documents.services.js';
import type { IdentityServices } from './modules/identity/identity.services.js';
import type { createAdminModelsService } from './modules/models/admin-models.services.js';
import type { createModuleServices } from './modules/modules/modules.services.js';
import type { createPromptServices } from './modules/prompts/prompts.services.js';
import type { createScimServices } from './modules/scim/scim.services.js';
import type { createSettingsAdminServices } from './modules/settings/settings-admin.services.js';
import type { SettingsService } from './modules/settings/settings.service.js';
import type { createSharingService } from './modules/sharing/sharing.services.js';
import type { PersonalDataServices } from './modules/personal-data/personal-data.services.js';
import type { createStatsServices } from './modules/stats/stats.services.js';
import type { createStorageServices } from './modules/storage/storage.services.js';
import type { RateLimits } from './plugins/rate-limits.js';
import { identityRoutes } from './modules/identity/identity.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { chatRoutes } from './modules/chat/chat.routes.js';
import { messageSearchRoutes } from './modules/chat/message-search.routes.js';
import { documentsRoutes } from './modules/documents/documents.routes.js';
import { imagesRoutes } from './modules/chat/images.routes.js';
import { sendRoutes } from './modules/chat/send.routes.js';
import { answerWatchRoutes } from './modules/chat/answer-watch.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { groupsRoutes } from './modules/groups/groups.routes.js';
import { adminCreditsRoutes } from './modules/credits/admin-credits.routes.js';
import { adminUsersRoutes } from './modules/users/admin-users.routes.js';
import { adminModulesRoutes } from './modules/modules/admin-modules.routes.js';
import { modulesRoutes } from './modules/modules/modules.routes.js';
import { modelsRoutes } from './modules/models/models.routes.js';
import { adminModelsRoutes } from './modules/models/admin-models.routes.js';
import { publicRoutes } from './modules/settings/public.routes.js';
import { adminSettingsRoutes } from './modules/settings/admin-settings.routes.js';
import { siteRoutes } from './modules/settings/site.routes.js';
import { storageRoutes } from './modules/storage/storage.routes.js';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.js';
import { V1_PREFIX, v1Routes } from './modules/api-usage/v1.routes.js';
import { announcementsRoutes } from './modules/announcements/announcements.routes.js';
import { capsRoutes } from './modules/caps/caps.routes.js';
import { scimRoutes, SCIM_PREFIX } from './modules/scim/scim.routes.js';
import { sharingRoutes } from './modules/sharing/sharing.routes.js';
import { personalDataRoutes } from './modules/personal-data/personal-data.routes.js';
import { legalHoldsRoutes } from './modules/legal-holds/legal-holds.routes.js';
import { retentionRoutes } from './modules/retention/retention.routes.js';
import type { GovernanceServices } from './modules/retention/retention.services.js';
import { scimTokensRoutes } from './modules/scim/scim-tokens.routes.js';
import { statsRoutes } from './modules/stats/stats.routes.js';

/** The services the routes hand requests to, as the composition root built them. */
export interface RouteServices {
  db: Kysely<Database>;
  kv: KvStore;
  config: AppConfig;
  /** Tests inject what the data directory's volume reports; otherwise `fs.statfs`. */
  statfs: StatFsReader | undefined;
  guards: Guards;
  limits: RateLimits;
  settings: SettingsService;
  settingsAdmin: ReturnType<typeof createSettingsAdminServices>;
  storage: ReturnType<typeof createStorageServices>;
  announcements: ReturnType<typeof createAnnouncementsService>;
  caps: ReturnType<typeof createCapsServices>;
  auth: ReturnType<typeof createAuthServices>;
  identity: IdentityServices;
  modules: Awaited<ReturnType<typeof createModuleServices>>;
  adminModels: ReturnType<typeof createAdminModelsService>;
  chat: ReturnType<typeof createChatServices>;
  sharing: ReturnType<typeof createSharingService>;
  personalData: PersonalDataServices;
  governance: GovernanceServices;
  documents: ReturnType<typeof createDocumentServices>;
  prompts: ReturnType<typeof createPromptServices>;
  admin: ReturnType<typeof createAdminServices>;
  stats: ReturnType<typeof createStatsServices>;
  scim: ReturnType<typeof createScimServices>;
  apiKeys: ApiKeyServices;
  apiUsage: ApiUsageServices;
}

/**
 * Every route of the server: the JSON API under `/api`, and the two protocols that live at
 * the site root because their clients expect them there (SCIM, OpenAI's `/v1`). The
 * composition root (app.ts) builds the services; this file only says where each is reached.
 */
export async function registerRoutes(app: FastifyInstance, d: RouteServices): Promise<void> {
  await app.register(
    async (api) => {
      await api.register(healthRoutes(d.db, d.kv, diskSpaceCheck(d.config.dataDir, d.config.minFreeDiskMb, d.statfs)));
      await api.register(publicRoutes(d.settings));
      await api.register(siteRoutes(d.settingsAdmin));
      await api.register(adminSettingsRoutes(d.settingsAdmin, d.guards));
      await api.register(storageRoutes(d.storage.budget));
      await api.register(announcementsRoutes(d.announcements));
      await api.register(capsRoutes(d.caps));
      await api.register(authRoutes(d.auth, d.guards, d.limits));
      await api.register(identityRoutes(d.identity, d.limits, d.config.publicUrl));
      await api.register(modulesRoutes(d.modules));
      await api.register(adminModulesRoutes(d.modules.admin));
      await api.register(modelsRoutes(d.chat.models));
      await api.register(adminModelsRoutes(d.adminModels));
      await api.register(chatRoutes(d.chat.conversations, d.limits));
      await api.register(messageSearchRoutes(new MessageSearchService(new MessageSearchRepo(d.db))));
      await api.register(sendRoutes(d.chat.send, d.limits, { heartbeatMs: d.config.streamHeartbeatMs }));
      await api.register(answerWatchRoutes(d.chat.watch, d.guards, { heartbeatMs: d.config.streamHeartbeatMs }));
      await api.register(imagesRoutes(d.chat.images, d.guards, d.limits));
      await api.register(sharingRoutes(d.sharing, d.limits));
      await api.register(personalDataRoutes(d.personalData, d.guards, d.limits));
      await api.register(legalHoldsRoutes(d.governance.legalHolds));
      await api.register(retentionRoutes(d.governance.retention));
      await api.register(documentsRoutes(d.documents, d.guards, d.limits));
      await api.register(d.documents.knowledge.routes);
      await api.register(d.prompts.routes);
      await api.register(adminUsersRoutes(d.admin, d.guards));
      await api.register(adminCreditsRoutes(d.admin.credits));
      await api.register(groupsRoutes(d.admin));
      await api.register(auditRoutes(d.admin.audit, d.admin.auditCheckpoints, d.guards));
      await api.register(statsRoutes(d.stats.service, d.stats.usage));
      await api.register(scimTokensRoutes(d.scim.tokens));
      await api.register(apiKeysRoutes(d.apiKeys));
    },
    { prefix: '/api' },
  );
  // At the site root, where identity providers expect it: SCIM is not part of the JSON API.
  await app.register(scimRoutes(d.scim), { prefix: SCIM_PREFIX });
  // At the site root, where OpenAI clients expect it: OpenAI's wire format, not the JSON API.
  await app.register(v1Routes(d.apiUsage), { prefix: V1_PREFIX });
}
