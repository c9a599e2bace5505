import { LIMITS, UploadedImageSchema } from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Guards, currentAuth } from '../../lib/auth-guard.js';
import { sendOk } from '../../lib/envelope.js';
import { successEnvelope } from '../../lib/openapi.js';
import { readFilePart } from '../../lib/uploads.js';
import type { RateLimits } from '../../plugins/rate-limits.js';
import type { ImagesService } from './images.service.js';

/** Chat image upload and download; the download needs the bearer token like any API call. */
export const imagesRoutes =
  (images: ImagesService, guards: Guards, limits: RateLimits): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/chat/upload-image',
      {
        preHandler: [guards.authenticate, guards.requirePermission('file.upload')],
        config: limits.chatUpload,
        schema: {
          tags: ['chat'],
          summary: 'Upload a chat image (multipart field "image", JPG/PNG/GIF/WebP ≤ 10 MB)',
          response: { 200: successEnvelope(UploadedImageSchema) },
        },
      },
      async (req, reply) => {
        const file = await readFilePart(req, LIMITS.imageMaxBytes);
        return sendOk(req, reply, await images.upload(currentAuth(req).user.id, file));
      },
    );
    app.get(
      '/chat/images/:id',
      { preHandler: guards.authenticate, schema: { tags: ['chat'], params: z.object({ id: z.string().uuid() }) } },
      async (req, reply) => images.serve(currentAuth(req), req.params.id, reply),
    );
  };
