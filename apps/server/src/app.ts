import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import { type Language, LIMITS, pickLanguage } from '@aiplatform/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { type ZodTypeProvider, validatorCompiler } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import crypto from 'node:crypto';
import { type BootstrapResult, bootstrap } from './bootstrap.js';
import { type AppConfig, startupWarnings } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { createGuards } from './lib/auth/auth-guard.js';
import { createChangeBus } from './lib/data/change-bus.js';
import { createIdentityServices, type IdentityServices } from './modules/identity/identity.services.js';
import { identityRoutes } from './modules/identity/identity.routes.js';
import { createLdapServices } from './modules/identity/ldap/ldap.services.js';
import { type StatFsReader, diskSpaceCheck } from './lib/data/disk-space.js';
import { applyHttpServerSettings } from './lib/http/http-server-settings.js';
import { AppError } from './lib/http/errors.js';
import { type Clock, systemClock } from './lib/runtime/clock.js';
import { type HousekeepingTask, runHousekeeping, scheduleHousekeeping } from './lib/runtime/housekeeping.js';
import { type KvStore, MemoryKvStore, RedisKvStore, createRedis } from './lib/data/kv-store.js';
import { type Mailer, createOutboxMailer, createSmtpMailer } from './lib/runtime/mailer.js';
import { OutboxRepo } from './modules/mail/outbox.repo.js';
import { serializerCompiler } from './lib/http/response-serializer.js';
import { resolveAppSecret } from './lib/auth/secrets.js';
import { AccessTokens } from './lib/auth/tokens.js';
import { TrustedNetworks } from './lib/auth/trusted-networks.js';
import { pruneAuthData } from './modules/auth/auth-housekeeping.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { createAuthServices } from './modules/auth/auth.services.js';
import { chatRoutes } from './modules/chat/chat.routes.js';
import { MessageSearchRepo } from './modules/chat/message-search.repo.js';
import { messageSearchRoutes } from './modules/chat/message-search.routes.js';
import { MessageSearchService } from './modules/chat/message-search.service.js';
import { createChatServices } from './modules/chat/chat.services.js';
import { createDocumentServices } from './modules/documents/documents.services.js';
import { documentsRoutes } from './modules/documents/documents.routes.js';
import { imagesRoutes } from './modules/chat/images.routes.js';
import { sendRoutes } from './modules/chat/send.routes.js';
import { answerWatchRoutes } from './modules/chat/answer-watch.routes.js';
import { CreditsRepo } from './modules/credits/credits.repo.js';
import { GroupsRepo } from './modules/groups/groups.repo.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { createAdminServices } from './modules/admin/admin.services.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { PoolAlerts } from './modules/groups/pool-alerts.js';
import { PoolAlertsRepo } from './modules/groups/pool-alerts.repo.js';
import { groupsRoutes } from './modules/groups/groups.routes.js';
import { adminCreditsRoutes } from './modules/credits/admin-credits.routes.js';
import { adminUsersRoutes } from './modules/users/admin-users.routes.js';
import { adminModulesRoutes } from './modules/modules/admin-modules.routes.js';
import { createModuleServices } from './modules/modules/modules.services.js';
import { modulesRoutes } from './modules/modules/modules.routes.js';
import { modelsRoutes } from './modules/models/models.routes.js';
import { adminModelsRoutes } from './modules/models/admin-models.routes.js';
import { createAdminModelsService } from './modules/models/admin-models.services.js';
import { publicRoutes } from './modules/settings/public.routes.js';
import { adminSettingsRoutes } from './modules/settings/admin-settings.routes.js';
import { createSettingsAdminServices } from './modules/settings/settings-admin.services.js';
import { siteRoutes } from './modules/settings/site.routes.js';
import { createStorageServices } from './modules/storage/storage.services.js';
import { storageRoutes } from './modules/storage/storage.routes.js';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.js';
import { type ApiKeyServices, createApiKeyServices } from './modules/api-keys/api-keys.services.js';
import { keyAllowsModel } from './modules/api-keys/api-key-auth.js';
import { type ApiUsageServices, createApiUsageServices } from './modules/api-usage/api-usage.services.js';
import { V1_PREFIX, v1Routes } from './modules/api-usage/v1.routes.js';
import { announcementsRoutes } from './modules/announcements/announcements.routes.js';
import { createAnnouncementsService } from './modules/announcements/announcements.services.js';
import { createPromptServices } from './modules/prompts/prompts.services.js';
import { scimRoutes, SCIM_PREFIX } from './modules/scim/scim.routes.js';
import { sharingRoutes } from './modules/sharing/sharing.routes.js';
import { createSharingService } from './modules/sharing/sharing.services.js';
import { createScimServices } from './modules/scim/scim.services.js';
import { scimTokensRoutes } from './modules/scim/scim-tokens.routes.js';
import { statsRoutes } from './modules/stats/stats.routes.js';
import { createStatsServices } from './modules/stats/stats.services.js';
import type { Presence } from './modules/stats/presence.js';
import { SessionActivity } from './modules/auth/session-activity.js';
import { SessionCache } from './lib/auth/session-cache.js';
import { SessionRepo } from './modules/auth/session.repo.js';
import { SettingsRepo } from './modules/settings/settings.repo.js';
import { SettingsService } from './modules/settings/settings.service.js';
import { UsersRepo } from './modules/users/users.repo.js';
import { registerDocs } from './plugins/docs.js';
import { SITE_SECURITY_HEADERS, registerSecurityHeaders } from './plugins/security-headers.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerInputGuard } from './plugins/input-guard.js';
import { registerMetrics } from './plugins/metrics.js';
import { registerRateLimits } from './plugins/rate-limits.js';
import { isClientRoute, registerSpa } from './plugins/spa.js';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Language;
  }
}

export interface AppOptions {
  config: AppConfig;
  clock?: Clock;
  /** Tests inject a mailer that captures codes; otherwise SMTP or the outbox. */
  mailer?: Mailer;
  /** Tests inject what the data directory's volume reports; otherwise `fs.statfs`. */
  statfs?: StatFsReader;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
}

export interface BuiltApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  bootstrapResult: BootstrapResult;
  /** The configuration with its cache (tests writing rows directly announce their change through it). */
  settings: SettingsService;
  /** Checked sessions (tests writing user or session rows directly announce their change through it). */
  sessionCache: SessionCache;
  /** Settles chat turns left by an instance that went away (tests run a round at will). */
  answerSweep: { sweep(): Promise<number> };
  /** Who is online (tests mark many users online without signing each in). */
  presence: Presence;
  /** The hourly housekeeping (tests run a round at will). */
  housekeeping: { run(now: Date): Promise<void> };
  /** Single sign-on's services (tests resolve accounts from profiles they make up). */
  identity: IdentityServices;
  /** Personal API keys: the request authentication of `/v1` and the keys' services. */
  apiKeys: ApiKeyServices;
  /** The OpenAI-compatible `/v1` and its billing (tests reach the sweep and the accounting). */
  apiUsage: ApiUsageServices;
}

/** Builds the whole server: used by main.ts and by every integration test. */
export async function buildApp(opts: AppOptions): Promise<BuiltApp> {
  const { config } = opts;
  const clock = opts.clock ?? systemClock;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      ...(opts.logStream ? { stream: opts.logStream } : {}),
    },
    // A hop count trusts exactly that many proxies in front of us (fastify takes it as a function).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_addr: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
    bodyLimit: 1024 * 1024,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : crypto.randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();
  for (const warning of startupWarnings(config)) app.log.warn(warning);
  applyHttpServerSettings(app.server, {
    maxConnectionsPerIp: config.maxConnectionsPerIp,
    trustProxy: config.trustProxy,
  });
  app.setValidatorCompiler(validatorCompiler);
  // Plain-data responses are written by compiled code; the rest through zod (lib/response-serializer).
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('lang', 'zh-CN');
  app.addHook('onRequest', async (req, reply) => {
    req.lang = pickLanguage(req.headers['accept-language']);
    void reply.header('X-Request-Id', req.id);
  });
  registerErrorHandler(app);
  registerInputGuard(app);

  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, log: app.log });
  const { db } = database;
  const redis: Redis | undefined = config.redisUrl ? createRedis(config.redisUrl, app.log) : undefined;
  const kv: KvStore = redis
    ? new RedisKvStore(redis, config.redisPrefix)
    : new MemoryKvStore(() => clock.now().getTime());
  app.addHook('onClose', async () => {
    await kv.close();
    await database.close();
  });

  const secret = resolveAppSecret(config.appSecret, config.dataDir);
  await migrateToLatest(db, { appSecret: secret });
  const users = new UsersRepo(db);
  const credits = new CreditsRepo(db);
  const groups = new GroupsRepo(db);
  // Change events between instances (Redis pub/sub when configured); caches listen to it.
  const changes = createChangeBus(redis, config.redisPrefix, app.log);
  app.addHook('onClose', () => changes.close());
  await changes.ready().catch((err: unknown) => app.log.warn({ err }, 'change bus not subscribed yet'));
  const settings = new SettingsService(new SettingsRepo(db), clock, changes);
  const bootstrapResult = await bootstrap({
    db,
    dialect: database.dialect,
    users,
    groups,
    settings,
    adminEmail: config.adminEmail,
    adminPassword: config.adminPassword,
    now: clock.now().toISOString(),
    log: app.log,
  });

  const mailer =
    opts.mailer ??
    (config.smtpUrl
      ? createSmtpMailer(config.smtpUrl, config.mailFrom)
      : createOutboxMailer(new OutboxRepo(db), app.log));
  const tokens = new AccessTokens(secret);
  const stats = createStatsServices({
    db,
    users,
    settings,
    clock,
    redis,
    redisPrefix: config.redisPrefix,
    log: app.log,
  });
  // Checked sessions for a few seconds; every revocation empties it on every instance.
  const sessionCache = new SessionCache(clock, changes);
  const guards = createGuards(
    tokens,
    users,
    clock,
    new SessionActivity({ settings, sessions: new SessionRepo(db, () => sessionCache.changed()), clock }),
    // Any signed-in request keeps its user counted as online.
    (userId) => stats.presence.seen(userId),
    sessionCache,
  );
  // Every call route reaches them to enforce its declared access (lib/call-route.ts).
  app.decorate('guards', guards);
  const trustedNetworks = new TrustedNetworks(config.trustedNetworks);
  const storage = createStorageServices({ db, kv, settings, mailer, clock, log: app.log, trusted: trustedNetworks });
  const poolAlerts = new PoolAlerts({ repo: new PoolAlertsRepo(db), mailer, settings, clock, log: app.log });
  const onPoolChanged = (groupId: number) => void poolAlerts.check(groupId);
  const auth = createAuthServices({
    db,
    users,
    credits,
    groups,
    settings,
    tokens,
    mailer,
    kv,
    secret,
    clock,
    dataDir: config.dataDir,
    loginLimitScale: config.rateLimitScale,
    trustedNetworks,
    sessionCache,
    uploads: storage.gate,
    onPoolChanged,
  });

  const admin = createAdminServices({ db, users, groups, settings, clock, secret, onPoolChanged, sessionCache });
  const adminModels = createAdminModelsService({ db, admin, clock, secret, settings });
  const identity = createIdentityServices({
    db,
    users,
    groups,
    settings,
    admin,
    sessions: auth.sessions,
    changes,
    clock,
    secret,
    onPoolChanged,
  });
  auth.login.useDirectorySignIn(createLdapServices(identity).signIn);
  const settingsAdmin = createSettingsAdminServices({ db, admin, settings, clock, dataDir: config.dataDir });
  const announcements = createAnnouncementsService({ db, admin, clock });
  const apiKeys = createApiKeyServices({
    db,
    users,
    kv,
    changes,
    clock,
    tx: admin.tx,
    timeZone: () => stats.calendar.timeZone(),
  });
  const prompts = createPromptServices({ db, admin, clock });
  const scim = createScimServices({ db, admin, users, groups, settings, clock, onPoolChanged });
  const modules = await createModuleServices({ db, admin, kv, clock, secret, log: app.log });
  modules.health.start();
  // Added after the database's own hook, so it runs first: no round outlives the database.
  app.addHook('onClose', () => modules.health.stop());

  // Documents are read by worker threads from a queue all instances share; stopped before the database closes.
  const documents = createDocumentServices({
    db,
    users,
    settings,
    clock,
    log: app.log,
    config,
    uploads: storage.gate,
    secret,
  });
  documents.jobs.start();
  documents.embeddings.start();
  app.addHook('preClose', () => documents.close());
  const chat = createChatServices({
    db,
    users,
    credits,
    settings,
    secret,
    clock,
    config,
    log: app.log,
    changes,
    uploads: storage.gate,
    documents: documents.forChat,
  });
  await chat.models.seedDefaultModel(settings, { apiKey: config.openaiApiKey, baseUrl: config.openaiBaseUrl }, app.log);
  // Turns a crashed instance (this one before a restart, or another) left streaming: settled now and every half lease.
  await chat.sweep.sweep();
  chat.sweep.start();
  // Before the database closes: stop answers in progress so their partial text is stored.
  app.addHook('preClose', async () => {
    await chat.send.close();
    // After the answers here were stored (their watchers heard how they ended): the rest attach again elsewhere.
    chat.watch.close();
    await chat.sweep.stop();
  });
  // `/v1`: requests through personal API keys, billed like the chat's turns.
  const apiUsage = createApiUsageServices({
    db,
    users,
    credits,
    settings,
    models: chat.models,
    clock,
    config,
    log: app.log,
    gate: { authenticate: (header, ip) => apiKeys.auth.authenticate(header, ip), allowsModel: keyAllowsModel },
  });
  await apiUsage.sweep.sweep();
  apiUsage.sweep.start();
  app.addHook('preClose', async () => {
    await apiUsage.close();
    await apiUsage.sweep.stop();
  });
  const sharing = createSharingService({ db, chat, settings, tx: admin.tx, clock, publicUrl: config.publicUrl });
  const housekeeping: HousekeepingTask[] = [
    { name: 'auth', run: (now) => pruneAuthData(db, now) },
    { name: 'single sign-on', run: (now) => identity.tickets.pruneExpired(now.toISOString()) },
    { name: 'chat uploads', run: (now) => chat.images.pruneStaleUploads(now) },
    {
      name: 'audit checkpoint',
      run: async (now) => {
        const checkpoint = await admin.auditCheckpoints.createIfDue(now);
        // The log keeps a copy outside the database, wherever the logs are shipped.
        if (checkpoint) app.log.info({ auditCheckpoint: checkpoint }, 'audit checkpoint signed');
      },
    },
  ];
  const stopHousekeeping = scheduleHousekeeping(clock, app.log, housekeeping);
  app.addHook('onClose', async () => stopHousekeeping());

  registerSecurityHeaders(app, SITE_SECURITY_HEADERS);
  await app.register(cors, { origin: false });
  await app.register(multipart, { limits: { fileSize: LIMITS.imageMaxBytes, files: 1, fields: 10 } });
  const limits = await registerRateLimits(app, {
    redis,
    redisPrefix: config.redisPrefix,
    scale: config.rateLimitScale,
    isEnabled: async () => (await settings.getSettings()).security.rate_limit_enabled,
  });
  registerMetrics(app, config.metricsToken);
  await registerDocs(app);

  await app.register(
    async (api) => {
      await api.register(healthRoutes(db, kv, diskSpaceCheck(config.dataDir, config.minFreeDiskMb, opts.statfs)));
      await api.register(publicRoutes(settings));
      await api.register(siteRoutes(settingsAdmin));
      await api.register(adminSettingsRoutes(settingsAdmin, guards));
      await api.register(storageRoutes(storage.budget));
      await api.register(announcementsRoutes(announcements));
      await api.register(authRoutes(auth, guards, limits));
      await api.register(identityRoutes(identity, limits, config.publicUrl));
      await api.register(modulesRoutes(modules));
      await api.register(adminModulesRoutes(modules.admin));
      await api.register(modelsRoutes(chat.models));
      await api.register(adminModelsRoutes(adminModels));
      await api.register(chatRoutes(chat.conversations, limits));
      await api.register(messageSearchRoutes(new MessageSearchService(new MessageSearchRepo(db))));
      await api.register(sendRoutes(chat.send, limits, { heartbeatMs: config.streamHeartbeatMs }));
      await api.register(answerWatchRoutes(chat.watch, guards, { heartbeatMs: config.streamHeartbeatMs }));
      await api.register(imagesRoutes(chat.images, guards, limits));
      await api.register(sharingRoutes(sharing, limits));
      await api.register(documentsRoutes(documents, guards, limits));
      await api.register(documents.knowledge.routes);
      await api.register(prompts.routes);
      await api.register(adminUsersRoutes(admin, guards));
      await api.register(adminCreditsRoutes(admin.credits));
      await api.register(groupsRoutes(admin));
      await api.register(auditRoutes(admin.audit, admin.auditCheckpoints, guards));
      await api.register(statsRoutes(stats.service, stats.usage));
      await api.register(scimTokensRoutes(scim.tokens));
      await api.register(apiKeysRoutes(apiKeys));
    },
    { prefix: '/api' },
  );
  // At the site root, where identity providers expect it: SCIM is not part of the JSON API.
  await app.register(scimRoutes(scim), { prefix: SCIM_PREFIX });
  // At the site root, where OpenAI clients expect it: OpenAI's wire format, not the JSON API.
  await app.register(v1Routes(apiUsage), { prefix: V1_PREFIX });

  const spaFallback = await registerSpa(app, config.webDistDir);
  app.setNotFoundHandler(async (req, reply) => {
    if (spaFallback && (req.method === 'GET' || req.method === 'HEAD') && isClientRoute(req.url)) {
      return spaFallback(req, reply);
    }
    throw new AppError('NOT_FOUND');
  });

  return {
    app,
    database,
    bootstrapResult,
    settings,
    sessionCache,
    answerSweep: chat.sweep,
    presence: stats.presence,
    housekeeping: { run: (now) => runHousekeeping(now, app.log, housekeeping) },
    identity,
    apiKeys,
    apiUsage,
  };
}
