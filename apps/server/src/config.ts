import path from 'node:path';
import { z } from 'zod';

/** The only place that reads process.env (DESIGN §8). */
const EnvSchema = z.object({
  NODE_ENV: z.string().default('production'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  REDIS_PREFIX: z.string().max(64).default('aip:'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('AI Platform <no-reply@localhost>'),
  APP_SECRET: z.string().min(16).optional(),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().optional(),
  RATE_LIMIT_SCALE: z.coerce.number().positive().max(1000).default(1),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});

export interface AppConfig {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Prefix of every Redis key, so several installations can share one Redis. */
  redisPrefix: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  appSecret: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  openaiApiKey: string | undefined;
  openaiBaseUrl: string | undefined;
  logLevel: string;
  webDistDir: string;
  trustProxy: boolean;
  /** Multiplies the built-in per-IP request limits and the per-account login-attempt limit. */
  rateLimitScale: number;
}

const here = path.dirname(new URL(import.meta.url).pathname);

/** Parses the environment once; tests build an AppConfig directly with `buildConfig`. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const e = EnvSchema.parse(env);
  return buildConfig({
    host: e.HOST,
    port: e.PORT,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    redisUrl: e.REDIS_URL || undefined,
    redisPrefix: e.REDIS_PREFIX,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    appSecret: e.APP_SECRET,
    adminEmail: e.ADMIN_EMAIL || undefined,
    adminPassword: e.ADMIN_PASSWORD || undefined,
    openaiApiKey: e.OPENAI_API_KEY || undefined,
    openaiBaseUrl: e.OPENAI_BASE_URL || undefined,
    logLevel: e.LOG_LEVEL,
    webDistDir: e.WEB_DIST_DIR ? path.resolve(e.WEB_DIST_DIR) : undefined,
    trustProxy: e.TRUST_PROXY,
    rateLimitScale: e.RATE_LIMIT_SCALE,
  });
}

export function buildConfig(partial: Partial<AppConfig> & { dataDir: string }): AppConfig {
  return {
    host: '127.0.0.1',
    port: 3000,
    databaseUrl: undefined,
    redisUrl: undefined,
    redisPrefix: 'aip:',
    smtpUrl: undefined,
    mailFrom: 'AI Platform <no-reply@localhost>',
    appSecret: undefined,
    adminEmail: undefined,
    adminPassword: undefined,
    openaiApiKey: undefined,
    openaiBaseUrl: undefined,
    logLevel: 'silent',
    trustProxy: false,
    rateLimitScale: 1,
    ...partial,
    webDistDir: partial.webDistDir ?? path.resolve(here, '../../web/dist'),
  };
}
