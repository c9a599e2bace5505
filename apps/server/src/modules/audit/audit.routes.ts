import { ADMIN_FILE_PATHS, type AuditLog, AuditFilterSchema } from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerCall } from '../../lib/http/call-route.js';
import type { Guards } from '../../lib/auth/auth-guard.js';
import { paginate } from '../../lib/http/envelope.js';
import { actorOf } from '../../policies/actor.js';
import { csvDownloadHeaders, csvStream } from '../../lib/http/csv-stream.js';
import type { AuditCheckpoints } from './audit-checkpoints.service.js';
import type { AuditService } from './audit.service.js';
import { accessHooks } from '../../lib/auth/call-access.js';

const AUDIT_COLUMNS = [
  'id',
  'created_at',
  'actor_id',
  'actor_username',
  'action',
  'target_type',
  'target_id',
  'ip',
  'request_id',
  'changes',
] as const;

function auditCsv(rows: AsyncIterable<AuditLog>) {
  return csvStream(
    AUDIT_COLUMNS,
    (async function* () {
      for await (const r of rows) yield { ...r, changes: JSON.stringify(r.changes) };
    })(),
  );
}

/**
 * /admin/audit-logs…: read-only by design; there is no call that changes a row. A
 * checkpoint only adds a signed statement of the head beside the log.
 */
export const auditRoutes =
  (audit: AuditService, checkpoints: AuditCheckpoints, guards: Guards): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'listAuditLogs', async ({ query }) => {
      const { items, total } = await audit.list(query, query.page, query.limit);
      return { items, pagination: paginate(query.page, query.limit, total) };
    });
    registerCall(app, 'verifyAuditLogs', () => audit.verify());
    registerCall(app, 'listAuditCheckpoints', async ({ query }) => {
      const { items, total } = await checkpoints.list(query.page, query.limit);
      return { items, pagination: paginate(query.page, query.limit, total) };
    });
    registerCall(app, 'createAuditCheckpoint', async ({ req }) => checkpoints.create((await actorOf(req)).id));
    registerCall(app, 'verifyAuditCheckpoint', ({ body }) => checkpoints.verifyAgainst(body));
    app.get(
      ADMIN_FILE_PATHS.auditExport,
      {
        preValidation: accessHooks(guards, 'audit.read'),
        schema: { tags: ['admin'], summary: 'The filtered audit log as CSV, streamed', querystring: AuditFilterSchema },
      },
      async (req, reply) => {
        return reply.headers(csvDownloadHeaders('audit')).send(auditCsv(audit.iterate(req.query)));
      },
    );
  };
