import { ADMIN_FILE_PATHS, AUTH_FILE_PATHS, DataExportQuerySchema, ROW_ID_MAX } from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Guards, currentAuth } from '../../lib/auth/auth-guard.js';
import { accessHooks } from '../../lib/auth/call-access.js';
import { registerCall } from '../../lib/http/call-route.js';
import { zipDownloadHeaders, zipStream } from '../../lib/http/zip-stream.js';
import type { RateLimits } from '../../plugins/rate-limits.js';
import { adminContextOf } from '../../policies/actor.js';
import type { PersonalDataServices } from './personal-data.services.js';

const UserIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(ROW_ID_MAX) });

/** A person's data: their own ZIP, a super administrator's copy of it, and erasure. Wiring only. */
export const personalDataRoutes =
  (s: PersonalDataServices, guards: Guards, limits: RateLimits): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      AUTH_FILE_PATHS.exportData,
      {
        preValidation: accessHooks(guards, 'signedIn'),
        config: limits.dataExport,
        schema: { tags: ['auth'], summary: 'Everything of the signed-in person as a ZIP, streamed' },
      },
      async (req, reply) => {
        const userId = currentAuth(req).user.id;
        const now = s.clock.now();
        const entries = s.exports.entries(userId, { lang: req.lang, includeHidden: false });
        return reply.headers(zipDownloadHeaders('my-data', now)).send(zipStream(entries));
      },
    );

    app.get(
      ADMIN_FILE_PATHS.userDataExport,
      {
        preValidation: accessHooks(guards, 'user.data_export'),
        config: limits.dataExport,
        schema: {
          tags: ['admin'],
          summary: "One person's data as a ZIP, streamed; `reason` required and audited",
          params: UserIdParamsSchema,
          querystring: DataExportQuerySchema,
        },
      },
      async (req, reply) => {
        const { id } = req.params;
        // Found and recorded before the first byte: once streaming, an error can no longer be answered.
        await s.adminExports.record(await adminContextOf(req), id, req.query.reason);
        const entries = s.exports.entries(id, { lang: req.lang, includeHidden: true });
        return reply.headers(zipDownloadHeaders(`user-${id}-data`, s.clock.now())).send(zipStream(entries));
      },
    );

    registerCall(app, 'eraseUser', async ({ req, id, body }) =>
      s.erasure.erase(await adminContextOf(req), id, body.reason),
    );
  };
