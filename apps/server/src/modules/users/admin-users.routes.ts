import { ADMIN_FILE_PATHS, UserFilterSchema, UserImportQuerySchema } from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerCall } from '../../lib/http/call-route.js';
import type { Guards } from '../../lib/auth/auth-guard.js';
import { csvDownloadHeaders } from '../../lib/http/csv-stream.js';
import { sendOk } from '../../lib/http/envelope.js';
import { AppError } from '../../lib/http/errors.js';
import { readFilePart } from '../../lib/http/uploads.js';
import { actorOf, adminContextOf } from '../../policies/actor.js';
import { listScope } from '../../policies/policy.js';
import type { AdminUsersService } from './admin-users.service.js';
import type { UserImportService } from './user-import.service.js';
import { usersCsvStream } from './user-csv-export.js';
import { accessHooks } from '../../lib/auth/call-access.js';

const IMPORT_MAX_BYTES = 2 * 1024 * 1024;

/** /admin/users…: wiring only; every rule lives in the services and the policy layer. */
export const adminUsersRoutes =
  (s: { users: AdminUsersService; imports: UserImportService }, guards: Guards): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'listUsers', async ({ req, query }) => s.users.list(await actorOf(req), query));
    registerCall(app, 'createUser', async ({ req, body }) => s.users.create(await adminContextOf(req), body));
    registerCall(app, 'getUser', async ({ req, id }) => s.users.get(await actorOf(req), id));
    registerCall(app, 'updateUser', async ({ req, id, body }) => s.users.update(await adminContextOf(req), id, body));
    registerCall(app, 'deleteUser', async ({ req, id }) => s.users.retire(await adminContextOf(req), id));
    registerCall(app, 'setUserStatus', async ({ req, id, body }) =>
      s.users.setStatus(await adminContextOf(req), id, body.status),
    );
    registerCall(app, 'resetPassword', async ({ req, id, body }) =>
      s.users.resetPassword(await adminContextOf(req), id, body.newPassword),
    );
    registerCall(app, 'bulkUsers', async ({ req, body }) => s.users.bulk(await adminContextOf(req), body));

    app.get(
      ADMIN_FILE_PATHS.usersExport,
      {
        preValidation: accessHooks(guards, 'user.export'),
        schema: { tags: ['admin'], summary: 'The filtered user list as CSV, streamed', querystring: UserFilterSchema },
      },
      async (req, reply) => {
        const actor = await actorOf(req);
        // Refuse before the first byte is sent: once streaming, a 403 can no longer be answered.
        listScope(actor, 'user.export');
        return reply.headers(csvDownloadHeaders('users')).send(usersCsvStream(s.users.iterate(actor, req.query)));
      },
    );

    app.post(
      ADMIN_FILE_PATHS.usersImport,
      {
        preValidation: accessHooks(guards, 'user.import'),
        schema: {
          tags: ['admin'],
          summary: 'Import users from CSV (multipart field `file`); `dry_run=true` only reports',
          querystring: UserImportQuerySchema,
        },
      },
      async (req, reply) => {
        const ctx = await adminContextOf(req);
        const part = await readFilePart(req, IMPORT_MAX_BYTES);
        if (!part || part.fieldname !== 'file') throw new AppError('VALIDATION_FAILED');
        let buffer: Buffer;
        try {
          buffer = await part.toBuffer();
        } catch (err) {
          // Only a file over the limit is too large; a truncated or malformed upload is bad input.
          if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('FILE_TOO_LARGE');
          throw new AppError('VALIDATION_FAILED', {}, undefined, err);
        }
        const report = await s.imports.import(ctx, buffer, req.query.dry_run, req.lang);
        return sendOk(req, reply, report, { status: report.dry_run ? 200 : 201 });
      },
    );
  };
