import { AUTH_FILE_PATHS, LIMITS } from '@aiplatform/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Guards, currentAuth } from '../../lib/auth/auth-guard.js';
import { accessHooks } from '../../lib/auth/call-access.js';
import { registerCall } from '../../lib/http/call-route.js';
import { sendOk } from '../../lib/http/envelope.js';
import { readFilePart } from '../../lib/http/uploads.js';
import type { RateLimits } from '../../plugins/rate-limits.js';
import type { AuthServices } from './auth.services.js';

const client = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? null });
const tags = ['auth'];

/** Wiring only: each handler makes one service call. */
export const authRoutes =
  (s: AuthServices, guards: Guards, limits: RateLimits): FastifyPluginAsyncZod =>
  async (app) => {
    const auth = { config: limits.auth };

    registerCall(app, 'login', ({ req, body }) => s.login.loginWithPassword(body, client(req)), auth);
    registerCall(app, 'loginByCode', ({ req, body }) => s.login.loginWithCode(body, client(req)), auth);
    registerCall(
      app,
      'loginByEmailPassword',
      ({ req, body }) => s.login.loginWithEmailPasswordCode(body, client(req)),
      auth,
    );
    registerCall(
      app,
      'sendEmailCode',
      async ({ req, body }) => {
        if (body.purpose === 'register') await s.registration.sendCode(body.email, req.lang);
        else await s.emailCodes.send(body.email, req.lang);
        return null;
      },
      { config: limits.emailCode, messageKey: 'server.codeSent' },
    );
    registerCall(app, 'refreshSession', ({ body }) => s.sessions.refresh(body.refreshToken), auth);
    registerCall(app, 'logout', async ({ req, body }) => {
      await s.sessions.logout(req.auth?.sessionId, body?.refreshToken);
      return null;
    });
    registerCall(app, 'getSession', ({ req }) => {
      // The guard already read the session (or has it cached): the user row is read once, here.
      const signedIn = currentAuth(req);
      return s.profile.getSessionData(signedIn.user.id, () => signedIn.permissions());
    });
    registerCall(app, 'updateProfile', ({ req, body }) => s.profile.updateProfile(currentAuth(req).user.id, body));
    registerCall(
      app,
      'changePassword',
      async ({ req, body }) => {
        const signedIn = currentAuth(req);
        await s.profile.changePassword(signedIn.user.id, signedIn.sessionId, body);
        return null;
      },
      auth,
    );
    registerCall(app, 'myCreditHistory', ({ req, query }) =>
      s.profile.creditHistory(currentAuth(req).user.id, query.page, query.limit, req.lang),
    );
    registerCall(app, 'register', ({ body }) => s.registration.register(body), auth);
    registerCall(
      app,
      'checkEmail',
      async ({ body }) => ({ available: await s.registration.isEmailAvailable(body.email) }),
      { config: limits.check },
    );
    registerCall(
      app,
      'checkUsername',
      async ({ body }) => ({ available: await s.registration.isUsernameAvailable(body.username) }),
      { config: limits.check },
    );

    // Plain HTTP: a multipart upload and the image files.
    app.post(
      AUTH_FILE_PATHS.uploadAvatar,
      {
        preValidation: accessHooks(guards, 'signedIn'),
        schema: { tags, summary: 'Upload an avatar (multipart field "avatar", image ≤ 2 MB)' },
      },
      async (req, reply) => {
        const file = await readFilePart(req, LIMITS.avatarMaxBytes);
        return sendOk(req, reply, await s.avatars.upload(currentAuth(req).user.id, file, req.ip));
      },
    );
    app.get(
      '/avatars/:name',
      { schema: { tags, params: z.object({ name: z.string().regex(/^[0-9a-f-]{36}\.(png|jpg|gif|webp)$/) }) } },
      async (req, reply) => s.avatars.serve(req.params.name, reply),
    );
  };
