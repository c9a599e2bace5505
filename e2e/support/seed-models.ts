/**
 * Creates the e2e models the way the product does, through the server's own
 * ModelsService (API key sealed with the installation's secret), before the server
 * starts. There is no admin models API yet. Run by global setup as
 *
 *   node --import tsx e2e/support/seed-models.ts
 *
 * with the server's environment (DATA_DIR, APP_SECRET if any, OPENAI_API_KEY, OPENAI_BASE_URL).
 */
import { loadConfig } from '../../apps/server/src/config.js';
import { openDatabase } from '../../apps/server/src/db/database.js';
import { migrateToLatest } from '../../apps/server/src/db/migrate.js';
import { systemClock } from '../../apps/server/src/lib/runtime/clock.js';
import { SecretBox } from '../../apps/server/src/lib/auth/secret-box.js';
import { resolveAppSecret } from '../../apps/server/src/lib/auth/secrets.js';
import { ModelsRepo } from '../../apps/server/src/modules/models/models.repo.js';
import { ModelsService } from '../../apps/server/src/modules/models/models.service.js';
import { SEEDED_MODELS } from './models.js';

async function main() {
  const config = loadConfig();
  if (!config.openaiBaseUrl || !config.openaiApiKey) throw new Error('OPENAI_BASE_URL and OPENAI_API_KEY are required');
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const secret = resolveAppSecret(config.appSecret, config.dataDir);
    await migrateToLatest(database.db, { appSecret: secret });
    const repo = new ModelsRepo(database.db);
    const models = new ModelsService(repo, new SecretBox(secret), systemClock);
    for (const m of SEEDED_MODELS) {
      if (await repo.findByName(m.name)) continue;
      await models.create({
        ...m,
        provider: 'openai_compatible',
        api_key: config.openaiApiKey,
        api_endpoint: config.openaiBaseUrl,
      });
    }
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `seeding the e2e models failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
