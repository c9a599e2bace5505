import { HOMEPAGE_SANDBOX } from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { registerCall } from '../../lib/http/call-route.js';
import type { HomepageService } from './homepage.service.js';
import { SITE_IMAGE_NAME, type SiteImagesService } from './site-images.service.js';

/**
 * The homepage as a document allows no script, no plugin and no form, loads only images,
 * and may be framed by the application alone. Its sandbox lets a click on a link move the
 * whole window or open a new tab, so a link does not open inside the frame (where the
 * application, without scripts, and most other sites would show nothing).
 */
export const HOMEPAGE_CSP = `default-src 'none'; img-src https: data:; style-src 'unsafe-inline'; sandbox ${HOMEPAGE_SANDBOX}; base-uri 'none'; form-action 'none'; frame-ancestors 'self'`;

/** What visitors see without signing in: the custom homepage and the site's logo and favicon. */
export const siteRoutes =
  (s: { homepage: HomepageService; images: SiteImagesService }): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['public'];
    registerCall(app, 'getPublicHomepage', () => s.homepage.publicHomepage());
    app.get(
      '/public/homepage.html',
      { schema: { tags, summary: 'The custom homepage as a sandboxed HTML document' } },
      async (_req, reply) =>
        reply
          .header('Content-Type', 'text/html; charset=utf-8')
          .header('Content-Security-Policy', HOMEPAGE_CSP)
          .header('X-Content-Type-Options', 'nosniff')
          .header('Cache-Control', 'no-cache')
          .send(await s.homepage.document()),
    );
    app.get(
      '/public/site-images/:name',
      { schema: { tags, params: z.object({ name: z.string().regex(SITE_IMAGE_NAME) }) } },
      async (req, reply) => s.images.serve(req.params.name, reply),
    );
  };
