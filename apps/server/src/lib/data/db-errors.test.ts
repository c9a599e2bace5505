import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { isDatabaseUnavailable, isStorageFull } from './db-errors.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('recognises a database that is down, restarting, unreachable or still locked', () => {
    for (const err of [
      withCode('ECONNREFUSED'),
      withCode('ECONNRESET'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P03', 'the database system is starting up'),
      withCode('08006'),
      withCode('53300', 'sorry, too many clients already'),
      withCode('SQLITE_BUSY', 'database is locked'),
      withCode('SQLITE_BUSY_SNAPSHOT'),
      new Error('timeout exceeded when trying to connect'),
      new Error('timeout expired'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout', { cause: withCode('ETIMEDOUT') }),
      new Error('wrapped', { cause: withCode('ECONNREFUSED') }),
    ]) {
      expect(isDatabaseUnavailable(err), err.message).toBe(true);
    }
  });

  it('leaves errors of the query itself alone', () => {
    for (const err of [
      withCode('23505', 'duplicate key'),
      withCode('42P01', 'relation does not exist'),
      withCode('SQLITE_CONSTRAINT_UNIQUE'),
      new Error('boom'),
      undefined,
      'ECONNREFUSED',
    ]) {
      expect(isDatabaseUnavailable(err)).toBe(false);
    }
  });
});

describe('isStorageFull', () => {
  it('recognises a full disk as the file system, SQLite and PostgreSQL report it', () => {
    for (const err of [
      withCode('ENOSPC', 'ENOSPC: no space left on device, write'),
      withCode('EDQUOT', 'EDQUOT: disk quota exceeded'),
      withCode('SQLITE_FULL', 'database or disk is full'),
      withCode('53100', 'could not extend file: No space left on device'),
      new Error('wrapped', { cause: withCode('ENOSPC') }),
    ]) {
      expect(isStorageFull(err), err.message).toBe(true);
      expect(isDatabaseUnavailable(err), err.message).toBe(false);
    }
  });

  it('leaves other failures alone', () => {
    for (const err of [
      withCode('EACCES'),
      withCode('SQLITE_CONSTRAINT'),
      withCode('53300'),
      new Error('x'),
      undefined,
    ]) {
      expect(isStorageFull(err)).toBe(false);
    }
  });
});

describe('a database that is unavailable, as the client sees it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    t.app.get('/api/test-only/locked', () => {
      throw withCode('SQLITE_BUSY', 'database is locked');
    });
    t.app.get('/api/test-only/broken', () => {
      throw new Error('a bug');
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 503 SERVICE_UNAVAILABLE in the caller’s language, with a hint to retry', async () => {
    for (const [lang, text] of [
      ['zh-CN', '服务暂时不可用，请稍后再试'],
      ['en-US', 'Service temporarily unavailable, please try again later'],
    ] as const) {
      const res = await t.request('GET', '/api/test-only/locked', { lang });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ success: false, code: 503, error: 'SERVICE_UNAVAILABLE', message: text });
      expect(res.headers['retry-after']).toBe('5');
    }
  });

  it('still answers 500 INTERNAL for any other failure', async () => {
    const res = await t.get('/api/test-only/broken');
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('INTERNAL');
  });
});
