import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoginResult, Pagination } from '@aiplatform/contracts';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { type BuiltApp, buildApp } from '../src/app.js';
import { type AppConfig, buildConfig } from '../src/config.js';
import type { Dialect } from '../src/db/database.js';
import type { Database } from '../src/db/types.js';
import { ManualClock } from '../src/lib/runtime/clock.js';
import type { StatFsReader } from '../src/lib/data/disk-space.js';
import { CreditsRepo } from '../src/modules/credits/credits.repo.js';
import type { Mailer } from '../src/lib/runtime/mailer.js';
import { type SmtpSink, startSmtpSink } from './smtp-sink.js';

export const ADMIN_EMAIL = 'admin@test.local';
export const ADMIN_PASSWORD = 'Admin#Pass123';

/** The PostgreSQL server of the run, or undefined for SQLite (an empty value counts as unset). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

/** Error payload of the envelope; success payloads are typed by the caller. */
export interface ErrorData {
  errors?: string[];
  [key: string]: unknown;
}

export interface ApiBody<T> {
  success: boolean;
  code: number;
  message: string;
  data: T;
  error?: string;
  requestId?: string;
  timestamp: string;
  pagination?: Pagination;
}

export interface ApiResponse<T = ErrorData> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: ApiBody<T>;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw payload sent as is (for malformed input); `headers` should name its content type. */
  payload?: string | Buffer;
  token?: string | undefined;
  lang?: string | undefined;
  headers?: Record<string, string>;
  /** The client's address as the server sees it (127.0.0.1 when unset). */
  remoteAddress?: string;
}

export interface Credentials {
  id: number;
  email: string;
  username: string;
  password: string;
  phone: string | null;
}

export interface TestAppOptions {
  config?: Partial<Omit<AppConfig, 'dataDir' | 'databaseUrl'>>;
  clock?: ManualClock;
  /** Replaces SMTP delivery; by default codes go through a real SMTP sink. */
  mailer?: Mailer;
  /** Rewrites the PostgreSQL URL the app connects with (a proxy in front, an application_name). */
  databaseUrl?: (url: string) => string;
  /** What the data directory's volume reports to readiness (the real `fs.statfs` by default). */
  statfs?: StatFsReader;
}

let counter = 0;
/** Short unique suffix for emails and usernames (usernames allow 20 characters). */
export function unique(): string {
  counter += 1;
  return `${crypto.randomBytes(3).toString('hex')}${counter.toString(36)}`;
}

interface Storage {
  dataDir: string;
  databaseUrl: string | undefined;
  dialect: Dialect;
  drop(): Promise<void>;
}

async function withAdminClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh data dir, plus on PostgreSQL a schema of its own selected through the
 * connection's search_path, so test files can run in parallel against one server.
 */
async function createStorage(): Promise<Storage> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aip-server-test-'));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (!TEST_DATABASE_URL) return { dataDir, databaseUrl: undefined, dialect: 'sqlite', drop: async () => removeDir() };

  const schema = `t_${crypto.randomBytes(8).toString('hex')}`;
  await withAdminClient((c) => c.query(`create schema "${schema}"`));
  const sep = TEST_DATABASE_URL.includes('?') ? '&' : '?';
  return {
    dataDir,
    databaseUrl: `${TEST_DATABASE_URL}${sep}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    dialect: 'postgres',
    drop: async () => {
      await withAdminClient((c) => c.query(`drop schema if exists "${schema}" cascade`));
      removeDir();
    },
  };
}

export class TestApp {
  app!: FastifyInstance;
  db!: Kysely<Database>;
  bootstrapResult!: BuiltApp['bootstrapResult'];
  settings!: BuiltApp['settings'];
  sessionCache!: BuiltApp['sessionCache'];
  answerSweep!: BuiltApp['answerSweep'];
  presence!: BuiltApp['presence'];
  housekeeping!: BuiltApp['housekeeping'];
  identity!: BuiltApp['identity'];
  apiKeys!: BuiltApp['apiKeys'];
  apiUsage!: BuiltApp['apiUsage'];
  config!: AppConfig;
  readonly admin = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD };

  constructor(
    readonly storage: Storage,
    readonly clock: ManualClock,
    readonly smtp: SmtpSink | undefined,
    private readonly options: TestAppOptions,
  ) {}

  /** The SMTP sink receiving this app's mail. */
  get mail(): SmtpSink {
    if (!this.smtp) throw new Error('this test app was built with an injected mailer');
    return this.smtp;
  }

  get dialect(): Dialect {
    return this.storage.dialect;
  }

  /** Builds (or rebuilds, on the same database and data dir) the app. */
  async open(): Promise<this> {
    this.config = buildConfig({
      adminEmail: ADMIN_EMAIL,
      adminPassword: ADMIN_PASSWORD,
      rateLimitScale: 100,
      logLevel: 'silent',
      smtpUrl: this.smtp?.url,
      // Never serve a web build that another process may be writing.
      webDistDir: path.join(this.storage.dataDir, 'no-web-build'),
      ...this.options.config,
      dataDir: this.storage.dataDir,
      databaseUrl:
        this.storage.databaseUrl && this.options.databaseUrl
          ? this.options.databaseUrl(this.storage.databaseUrl)
          : this.storage.databaseUrl,
    });
    const built = await buildApp({
      config: this.config,
      clock: this.clock,
      ...(this.options.mailer ? { mailer: this.options.mailer } : {}),
      ...(this.options.statfs ? { statfs: this.options.statfs } : {}),
    });
    this.app = built.app;
    this.db = built.database.db;
    this.bootstrapResult = built.bootstrapResult;
    this.settings = built.settings;
    this.sessionCache = built.sessionCache;
    this.answerSweep = built.answerSweep;
    this.presence = built.presence;
    this.housekeeping = built.housekeeping;
    this.identity = built.identity;
    this.apiKeys = built.apiKeys;
    this.apiUsage = built.apiUsage;
    const created = built.bootstrapResult.createdAdmin;
    if (created) Object.assign(this.admin, { email: created.email, password: created.password });
    return this;
  }

  /** A second instance on the same database and data dir (its `close` must not drop them: close its `app`). */
  async sibling(): Promise<TestApp> {
    return new TestApp(this.storage, this.clock, this.smtp, this.options).open();
  }

  /** Restarts the server on the same storage, like a process restart. */
  async reopen(): Promise<this> {
    await this.app.close();
    return this.open();
  }

  async request<T = ErrorData>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    opts: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.lang) headers['accept-language'] = opts.lang;
    let payload = opts.payload;
    if (opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await this.app.inject({
      method,
      url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
      ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
    });
    let body: ApiBody<T>;
    try {
      body = JSON.parse(res.body) as ApiBody<T>;
    } catch {
      body = undefined as unknown as ApiBody<T>;
    }
    return { status: res.statusCode, headers: res.headers, body, text: res.body };
  }

  post<T = ErrorData>(url: string, body?: unknown, token?: string, lang?: string) {
    return this.request<T>('POST', url, { body, token, lang });
  }

  get<T = ErrorData>(url: string, token?: string, lang?: string) {
    return this.request<T>('GET', url, { token, lang });
  }

  put<T = ErrorData>(url: string, body?: unknown, token?: string, lang?: string) {
    return this.request<T>('PUT', url, { body, token, lang });
  }

  /** Signs in with a password and returns the login answer; throws when it fails. */
  async tokensFor(account: string, password: string): Promise<LoginResult> {
    const res = await this.post<LoginResult>('/api/auth/login', { account, password });
    if (res.status !== 200) throw new Error(`login of ${account} failed: ${res.status} ${res.text}`);
    return res.body.data;
  }

  loginAsAdmin(): Promise<LoginResult> {
    return this.tokensFor(this.admin.email, this.admin.password);
  }

  /** Registers through the API; throws unless the answer is 201. */
  async registerUser(overrides: Partial<Omit<Credentials, 'id'>> = {}): Promise<Credentials> {
    const suffix = unique();
    const input = {
      email: `user_${suffix}@example.com`,
      username: `u_${suffix}`,
      password: 'secret123',
      phone: null,
      ...overrides,
    };
    const res = await this.post<{ id: number }>('/api/auth/register', { ...input, confirmPassword: input.password });
    if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
    return { ...input, email: input.email.toLowerCase(), id: res.body.data.id };
  }

  /** Registers a user and signs them in. */
  async signUp(
    overrides: Partial<Omit<Credentials, 'id'>> = {},
  ): Promise<{ creds: Credentials; session: LoginResult }> {
    const creds = await this.registerUser(overrides);
    return { creds, session: await this.tokensFor(creds.email, creds.password) };
  }

  /**
   * Writes one `system_settings` section as an administrator would, and announces the
   * change so cached settings (this instance, and others through Redis) apply it at once.
   */
  async setSetting(key: string, value: unknown): Promise<void> {
    const now = this.clock.now().toISOString();
    await this.db
      .insertInto('system_settings')
      .values({ key, value: JSON.stringify(value), updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: now }))
      .execute();
    await this.settings.changed();
  }

  async setUserStatus(userId: number, status: 'active' | 'inactive'): Promise<void> {
    await this.db.updateTable('users').set({ status }).where('id', '=', userId).execute();
    // As the product's own writes do: checked sessions are kept for a few seconds otherwise.
    await this.sessionCache.changed();
  }

  userRow(userId: number) {
    return this.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  }

  /** The ledger sum as the product computes it, for the invariant ledger sum = balance. */
  ledgerSum(userId: number): Promise<number> {
    return new CreditsRepo(this.db).ledgerSum(userId);
  }

  async close(): Promise<void> {
    try {
      await this.app.close();
    } finally {
      await this.smtp?.close();
      await this.storage.drop();
    }
  }
}

/**
 * Builds the real app on fresh storage (SQLite in a temp dir, or an isolated PostgreSQL
 * schema when TEST_DATABASE_URL is set) with a ManualClock and an SMTP sink for mail.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const storage = await createStorage();
  const smtp = options.mailer ? undefined : await startSmtpSink();
  const t = new TestApp(storage, options.clock ?? new ManualClock(), smtp, options);
  try {
    return await t.open();
  } catch (err) {
    await smtp?.close();
    await storage.drop();
    throw err;
  }
}

/** Builds a multipart/form-data payload with one file field. */
export function multipartFile(field: string, filename: string, contentType: string, content: Buffer) {
  const boundary = `----test${crypto.randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, content, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The smallest valid PNG (1×1, transparent). */
export const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
