import {
  ChangePasswordBodySchema,
  CheckEmailBodySchema,
  CheckUsernameBodySchema,
  CreditHistoryResultSchema,
  LIMITS,
  LoginBodySchema,
  LoginByCodeBodySchema,
  LoginByEmailPasswordBodySchema,
  LoginResultSchema,
  PageQuerySchema,
  RefreshBodySchema,
  RefreshResultSchema,
  RegisterBodySchema,
  SendEmailCodeBodySchema,
  SessionDataSchema,
  UpdateProfileBodySchema,
  UserSchema,
} from '@aiplatform/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Guards, currentAuth } from '../../lib/auth-guard.js';
import { sendOk } from '../../lib/envelope.js';
import { successEnvelope } from '../../lib/openapi.js';
import { readFilePart } from '../../lib/uploads.js';
import type { RateLimits } from '../../plugins/rate-limits.js';
import type { AuthServices } from './auth.services.js';

const client = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? null });
const tags = ['auth'];
const AvailableSchema = successEnvelope(z.object({ available: z.boolean() }));
const EmptySchema = successEnvelope(z.null());
/** Logout also takes the refresh token, so a session ends even when its access token expired. */
const LogoutBodySchema = z.object({ refreshToken: z.string().max(512).optional() }).nullish();

/** Wiring only: each handler validates, guards and makes one service call. */
export const authRoutes =
  (s: AuthServices, guards: Guards, limits: RateLimits): FastifyPluginAsyncZod =>
  async (app) => {
    const login = { tags, response: { 200: successEnvelope(LoginResultSchema) } };
    const signedIn = { preValidation: guards.authenticate };

    app.post('/auth/login', { schema: { ...login, body: LoginBodySchema }, config: limits.auth }, async (req, reply) =>
      sendOk(req, reply, await s.login.loginWithPassword(req.body, client(req))),
    );
    app.post(
      '/auth/login-by-code',
      { schema: { ...login, body: LoginByCodeBodySchema }, config: limits.auth },
      async (req, reply) => sendOk(req, reply, await s.login.loginWithCode(req.body, client(req))),
    );
    app.post(
      '/auth/login-by-email-password',
      { schema: { ...login, body: LoginByEmailPasswordBodySchema }, config: limits.auth },
      async (req, reply) => sendOk(req, reply, await s.login.loginWithEmailPasswordCode(req.body, client(req))),
    );
    app.post(
      '/auth/send-email-code',
      { schema: { tags, body: SendEmailCodeBodySchema, response: { 200: EmptySchema } }, config: limits.emailCode },
      async (req, reply) => {
        if (req.body.purpose === 'register') await s.registration.sendCode(req.body.email, req.lang);
        else await s.emailCodes.send(req.body.email, req.lang);
        return sendOk(req, reply, null, { messageKey: 'server.codeSent' });
      },
    );
    app.post(
      '/auth/refresh',
      {
        schema: { tags, body: RefreshBodySchema, response: { 200: successEnvelope(RefreshResultSchema) } },
        config: limits.auth,
      },
      async (req, reply) => sendOk(req, reply, await s.sessions.refresh(req.body.refreshToken)),
    );
    app.post(
      '/auth/logout',
      {
        preValidation: guards.authenticateIfPresent,
        schema: { tags, body: LogoutBodySchema, response: { 200: EmptySchema } },
      },
      async (req, reply) => {
        await s.sessions.logout(req.auth?.sessionId, req.body?.refreshToken);
        return sendOk(req, reply, null);
      },
    );
    app.get(
      '/auth/me',
      { ...signedIn, schema: { tags, response: { 200: successEnvelope(SessionDataSchema) } } },
      async (req, reply) => {
        // The guard already read the session (or has it cached): the user row is read once, here.
        const auth = currentAuth(req);
        return sendOk(req, reply, await s.profile.getSessionData(auth.user.id, () => auth.permissions()));
      },
    );
    app.put(
      '/auth/profile',
      {
        ...signedIn,
        schema: {
          tags,
          body: UpdateProfileBodySchema,
          response: { 200: successEnvelope(z.object({ user: UserSchema })) },
        },
      },
      async (req, reply) => sendOk(req, reply, await s.profile.updateProfile(currentAuth(req).user.id, req.body)),
    );
    app.put(
      '/auth/password',
      {
        ...signedIn,
        config: limits.auth,
        schema: { tags, body: ChangePasswordBodySchema, response: { 200: EmptySchema } },
      },
      async (req, reply) => {
        const auth = currentAuth(req);
        await s.profile.changePassword(auth.user.id, auth.sessionId, req.body);
        return sendOk(req, reply, null);
      },
    );
    app.get(
      '/auth/credit-history',
      {
        ...signedIn,
        schema: { tags, querystring: PageQuerySchema, response: { 200: successEnvelope(CreditHistoryResultSchema) } },
      },
      async (req, reply) =>
        sendOk(
          req,
          reply,
          await s.profile.creditHistory(currentAuth(req).user.id, req.query.page, req.query.limit, req.lang),
        ),
    );
    app.post(
      '/auth/register',
      { schema: { tags, body: RegisterBodySchema }, config: limits.auth },
      async (req, reply) => sendOk(req, reply, await s.registration.register(req.body), { status: 201 }),
    );
    app.post(
      '/auth/check-email',
      { schema: { tags, body: CheckEmailBodySchema, response: { 200: AvailableSchema } }, config: limits.check },
      async (req, reply) => sendOk(req, reply, { available: await s.registration.isEmailAvailable(req.body.email) }),
    );
    app.post(
      '/auth/check-username',
      { schema: { tags, body: CheckUsernameBodySchema, response: { 200: AvailableSchema } }, config: limits.check },
      async (req, reply) =>
        sendOk(req, reply, { available: await s.registration.isUsernameAvailable(req.body.username) }),
    );
    app.post(
      '/auth/avatar',
      { ...signedIn, schema: { tags, summary: 'Upload an avatar (multipart field "avatar", image ≤ 2 MB)' } },
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
