import { LIMITS } from '@aiplatform/contracts';
import type { FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import type { Redis } from 'ioredis';
import { type BootstrapResult, bootstrap } from './bootstrap.js';
import type { AppConfig } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { createGuards } from './lib/auth/auth-guard.js';
import { createChangeBus } from './lib/data/change-bus.js';
import { createIdentityServices, type IdentityServices } from './modules/identity/identity.services.js';
import { createLdapServices } from './modules/identity/ldap/ldap.services.js';
import type { StatFsReader } from './lib/data/disk-space.js';
import { AppError } from './lib/http/errors.js';
import { type Clock, systemClock } from './lib/runtime/clock.js';
import { type HousekeepingTask, runHousekeeping, scheduleHousekeeping } from './lib/runtime/housekeeping.js';
import { type KvStore, MemoryKvStore, RedisKvStore, createRedis } from './lib/data/kv-store.js';
import { type Mailer, createOutboxMailer, createSmtpMailer } from './lib/runtime/mailer.js';
import { OutboxRepo } from './modules/mail/outbox.repo.js';
import { resolveAppSecret } from './lib/auth/secrets.js';
import { AccessTokens } from './lib/auth/tokens.js';
import { TrustedNetworks } from './lib/auth/trusted-networks.js';
import { pruneAuthData } from './modules/auth/auth-housekeeping.js';
import { createAuthServices } from './modules/auth/auth.services.js';
import { createChatServices } from './modules/chat/chat.services.js';
import { createDocumentServices } from './modules/documents/documents.services.js';
import { CreditsRepo } from './modules/credits/credits.repo.js';
import { GroupsRepo } from './modules/groups/groups.repo.js';
import { createAdminServices } from './modules/admin/admin.services.js';
import { PoolAlerts } from './modules/groups/pool-alerts.js';
import { PoolAlertsRepo } from './modules/groups/pool-alerts.repo.js';
import { createModuleServices } from './modules/modules/modules.services.js';
import { createAdminModelsService } from './modules/models/admin-models.services.js';
import { createSettingsAdminServices } from './modules/settings/settings-admin.services.js';
import { createStorageServices } from './modules/storage/storage.services.js';
import { type ApiKeyServices, createApiKeyServices } from './modules/api-keys/api-keys.services.js';
import { keyAllowsModel } from './modules/api-keys/api-key-auth.js';
import { type ApiUsageServices, createApiUsageServices } from './modules/api-usage/api-usage.services.js';
import { createCapsServices } from './modules/caps/caps.services.js';
import { PoolThresholdAlerts } from './modules/caps/pool-threshold-alerts.js';
import { PoolThresholdAlertsRepo } from './modules/caps/pool-threshold-alerts.repo.js';
import { createAnnouncementsService } from './modules/announcements/announcements.services.js';
import { createPromptServices } from './modules/prompts/prompts.services.js';
import { createSharingService } from './modules/sharing/sharing.services.js';
import { createPersonalDataServices } from './modules/personal-data/personal-data.services.js';
import { createGovernanceServices } from './modules/retention/retention.services.js';
import { createScimServices } from './modules/scim/scim.services.js';
import { createStatsServices } from './modules/stats/stats.services.js';
import type { Presence } from './modules/stats/presence.js';
import { SessionActivity } from './modules/auth/session-activity.js';
import { SessionCache } from './lib/auth/session-cache.js';
import { SessionRepo } from './modules/auth/session.repo.js';
import { SettingsRepo } from './modules/settings/settings.repo.js';
import { SettingsService } from './modules/settings/settings.service.js';
import { UsersRepo } from './modules/users/users.repo.js';
import { createHttpApp } from './app-http.js';
import { registerRoutes } from './app-routes.js';
import { registerDocs } from './plugins/docs.js';
import { SITE_SECURITY_HEADERS, registerSecurityHeaders } from './plugins/security-headers.js';
import { registerMetrics } from './plugins/metrics.js';
import { registerRateLimits } from './plugins/rate-limits.js';
import { isClientRoute, registerSpa } from './plugins/spa.js';

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
  const app = createHttpApp(config, opts.logStream);

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
  const poolThresholds = new PoolThresholdAlerts({ repo: new PoolThresholdAlertsRepo(db), clock, log: app.log });
  const onPoolChanged = (groupId: number) => {
    void poolAlerts.check(groupId);
    void poolThresholds.check(groupId);
  };
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
  const caps = createCapsServices({
    db,
    admin,
    settings,
    clock,
    secret,
    mailer,
    log: app.log,
    deliveryIntervalMs: config.alertDeliveryIntervalMs,
  });
  caps.deliveries.start();
  app.addHook('preClose', () => caps.deliveries.stop());
  const apiKeys = createApiKeyServices({
    db,
    users,
    kv,
    changes,
    clock,
    tx: admin.tx,
    timeZone: () => stats.calendar.timeZone(),
    // The chat's models service is made further down; asked only when a request comes.
    usableModels: (groupId) => chat.models.listForApi(groupId),
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
  const personalData = createPersonalDataServices({
    db,
    dataDir: config.dataDir,
    clock,
    tx: admin.tx,
    conversations: chat.conversations,
    sessions: new SessionRepo(db, () => sessionCache.changed()),
  });
  const governance = createGovernanceServices({ db, chat, settings, tx: admin.tx, clock });
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
    {
      // Offered every hour by every instance; one takes the cluster-wide lock and runs it once a day.
      name: 'retention',
      run: async () => {
        const done = await governance.retention.runDaily();
        if (done) app.log.info({ retention: done }, 'retention run');
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

  await registerRoutes(app, {
    db,
    kv,
    config,
    statfs: opts.statfs,
    guards,
    limits,
    settings,
    settingsAdmin,
    storage,
    announcements,
    caps,
    auth,
    identity,
    modules,
    adminModels,
    chat,
    sharing,
    personalData,
    governance,
    documents,
    prompts,
    admin,
    stats,
    scim,
    apiKeys,
    apiUsage,
  });

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
