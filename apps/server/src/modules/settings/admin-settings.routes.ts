import { ADMIN_FILE_PATHS, UploadedSiteImageSchema } from '@aiplatform/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerCall } from '../../lib/http/call-route.js';
import type { Guards } from '../../lib/auth/auth-guard.js';
import { sendOk } from '../../lib/http/envelope.js';
import { successEnvelope } from '../../lib/http/openapi.js';
import { readFilePart } from '../../lib/http/uploads.js';
import { actorOf, adminContextOf } from '../../policies/actor.js';
import type { AdminSettingsService } from './admin-settings.service.js';
import type { HomepageService } from './homepage.service.js';
import { SITE_IMAGE_MAX_BYTES, type SiteImageKind, type SiteImagesService } from './site-images.service.js';
import { accessHooks } from '../../lib/auth/call-access.js';

/** /admin/settings…: wiring only. */
export const adminSettingsRoutes =
  (
    s: { settings: AdminSettingsService; homepage: HomepageService; images: SiteImagesService },
    guards: Guards,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'getSettings', async ({ req }) => s.settings.get(await actorOf(req)));
    registerCall(app, 'updateSettings', async ({ req, body }) => s.settings.update(await adminContextOf(req), body));
    registerCall(app, 'getHomepage', async ({ req }) => s.homepage.get(await actorOf(req)));
    registerCall(app, 'updateHomepage', async ({ req, body }) => s.homepage.update(await adminContextOf(req), body));

    const upload = (kind: SiteImageKind) => async (req: FastifyRequest) =>
      s.images.upload(await adminContextOf(req), kind, () => readFilePart(req, SITE_IMAGE_MAX_BYTES));
    const uploads: [string, SiteImageKind][] = [
      [ADMIN_FILE_PATHS.uploadLogo, 'logo'],
      [ADMIN_FILE_PATHS.uploadFavicon, 'favicon'],
    ];
    for (const [url, kind] of uploads) {
      app.post(
        url,
        {
          preValidation: accessHooks(guards, 'settings.manage'),
          schema: {
            tags: ['admin'],
            summary: `Upload the site ${kind} (multipart field "${kind}", image ≤ 2 MB, checked by content)`,
            response: { 200: successEnvelope(UploadedSiteImageSchema) },
          },
        },
        async (req, reply) => sendOk(req, reply, await upload(kind)(req)),
      );
    }
  };
