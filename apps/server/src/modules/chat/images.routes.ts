import { LIMITS, UploadedImageSchema } from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Guards, currentAuth } from '../../lib/auth/auth-guard.js';
import { sendOk } from '../../lib/http/envelope.js';
import { successEnvelope } from '../../lib/http/openapi.js';
import { readFilePart } from '../../lib/http/uploads.js';
import type { RateLimits } from '../../plugins/rate-limits.js';
import type { ImagesService } from './images.service.js';
import { accessHooks } from '../../lib/auth/call-access.js';

const SignedQuerySchema = z.object({
  exp: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  sig: z.string().max(128).optional(),
});
const isSigned = (q: z.infer<typeof SignedQuerySchema>) => q.exp !== undefined || q.sig !== undefined;

/** Chat image upload and download (by signed address, or by the bearer token like any API call). */
export const imagesRoutes =
  (images: ImagesService, guards: Guards, limits: RateLimits): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/chat/upload-image',
      {
        preValidation: accessHooks(guards, 'file.upload'),
        config: limits.chatUpload,
        schema: {
          tags: ['chat'],
          summary: 'Upload a chat image (multipart field "image", JPG/PNG/GIF/WebP ≤ 10 MB)',
          response: { 200: successEnvelope(UploadedImageSchema) },
        },
      },
      async (req, reply) => {
        const file = await readFilePart(req, LIMITS.imageMaxBytes);
        return sendOk(req, reply, await images.upload(currentAuth(req).user.id, file, req.ip));
      },
    );
    // A signed address (`exp` and `sig`, as every answer carries) needs no bearer header, so
    // plain <img> tags work; without them the owner's bearer token is needed as for any call.
    app.get(
      '/chat/images/:id',
      {
        preValidation: async function (req, reply) {
          if (!isSigned(req.query)) await guards.authenticate.call(this, req, reply);
        },
        schema: { tags: ['chat'], params: z.object({ id: z.string().uuid() }), querystring: SignedQuerySchema },
      },
      async (req, reply) =>
        isSigned(req.query)
          ? images.serveSigned(req.params.id, req.query.exp ?? 0, req.query.sig ?? '', reply)
          : images.serve(currentAuth(req), req.params.id, reply),
    );
  };
