import { CHAT_FILE_PATHS, FileInfoSchema } from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Guards, currentAuth } from '../../lib/auth/auth-guard.js';
import { accessHooks } from '../../lib/auth/call-access.js';
import { registerCall } from '../../lib/http/call-route.js';
import { sendOk } from '../../lib/http/envelope.js';
import { successEnvelope } from '../../lib/http/openapi.js';
import { readFilePart } from '../../lib/http/uploads.js';
import type { RateLimits } from '../../plugins/rate-limits.js';
import type { FilesService } from './files.service.js';

/** Chat files: the multipart upload, and the JSON calls on a file. Wiring only. */
export const filesRoutes =
  (files: FilesService, guards: Guards, limits: RateLimits): FastifyPluginAsyncZod =>
  async (app) => {
    const userId = (req: Parameters<typeof currentAuth>[0]) => currentAuth(req).user.id;
    app.post(
      CHAT_FILE_PATHS.uploadFile,
      {
        preValidation: accessHooks(guards, 'file.upload'),
        config: limits.chatUpload,
        schema: {
          tags: ['chat'],
          summary: 'Upload a document or an image (multipart field "file")',
          response: { 201: successEnvelope(FileInfoSchema) },
        },
      },
      async (req, reply) => {
        const file = await readFilePart(req, await files.maxUploadBytes());
        return sendOk(req, reply, await files.upload(userId(req), file, req.ip), { status: 201 });
      },
    );
    registerCall(app, 'getFile', ({ req, params }) => files.info(userId(req), params.id));
    registerCall(app, 'getFileText', ({ req, params }) => files.text(userId(req), params.id));
    registerCall(app, 'deleteFile', ({ req, params }) => files.remove(userId(req), params.id));
  };
