import { type Language, pickLanguage } from '@aiplatform/contracts';
import Fastify from 'fastify';
import { type ZodTypeProvider, validatorCompiler } from 'fastify-type-provider-zod';
import crypto from 'node:crypto';
import { type AppConfig, startupWarnings } from './config.js';
import { applyHttpServerSettings } from './lib/http/http-server-settings.js';
import { serializerCompiler } from './lib/http/response-serializer.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerInputGuard } from './plugins/input-guard.js';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Language;
  }
}

/**
 * The fastify instance before any service: logging (secrets redacted), the proxies trusted,
 * request ids, the socket settings, compiled validation and serialisation, the reader's
 * language, the error envelope and the input guard.
 */
export function createHttpApp(config: AppConfig, logStream: { write(line: string): void } | undefined) {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      ...(logStream ? { stream: logStream } : {}),
    },
    // A hop count trusts exactly that many proxies in front of us (fastify takes it as a function).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_addr: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
    bodyLimit: 1024 * 1024,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : crypto.randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();
  for (const warning of startupWarnings(config)) app.log.warn(warning);
  applyHttpServerSettings(app.server, {
    maxConnectionsPerIp: config.maxConnectionsPerIp,
    trustProxy: config.trustProxy,
  });
  app.setValidatorCompiler(validatorCompiler);
  // Plain-data responses are written by compiled code; the rest through zod (lib/response-serializer).
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('lang', 'zh-CN');
  app.addHook('onRequest', async (req, reply) => {
    req.lang = pickLanguage(req.headers['accept-language']);
    void reply.header('X-Request-Id', req.id);
  });
  registerErrorHandler(app);
  registerInputGuard(app);
  return app;
}
