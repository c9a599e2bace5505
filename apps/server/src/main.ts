import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { LISTEN_BACKLOG } from './lib/http/http-server-settings.js';

/**
 * A stop takes at most this long: answers in progress are stopped and stored at once, and
 * whatever still holds the process after it (a client sending a request body at a crawl, a
 * socket that never closes) does not keep it from exiting before an orchestrator kills it
 * (commonly at 10 s).
 */
const SHUTDOWN_DEADLINE_MS = 9_000;

/** Process entry: read the environment once, build, listen, and stop cleanly on signals. */
async function main() {
  const config = loadConfig();
  const { app, bootstrapResult, database } = await buildApp({ config });
  await app.listen({ host: config.host, port: config.port, backlog: LISTEN_BACKLOG });
  const url = `http://localhost:${config.port}`;
  const admin = bootstrapResult.createdAdmin;
  const lines = [
    '',
    `  AI Platform is running at ${url}  (database: ${database.dialect})`,
    admin
      ? `  Super administrator created: ${admin.email} / ${admin.generated ? `${admin.password}  (generated; shown only this once)` : '(password from ADMIN_PASSWORD)'}`
      : '  Sign in with your existing administrator account.',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      app.log.warn(
        { deadlineMs: SHUTDOWN_DEADLINE_MS },
        'shutdown deadline reached; exiting with connections still open',
      );
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(`failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
