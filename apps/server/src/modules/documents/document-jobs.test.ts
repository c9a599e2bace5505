import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, uploadDocument, uploadReady } from '../../../test/document-files.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { DocumentIndexRepo } from './document-index.repo.js';
import { DocumentJobsRepo } from './document-jobs.repo.js';

/** The extraction queue is the documents' rows, shared by every instance on the database. */
describe('document jobs across instances', () => {
  let t: TestApp;
  let other: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    other = await t.sibling();
    token = (await t.signUp()).session.accessToken;
  });
  afterAll(async () => {
    await other.app.close();
    await t.close();
  });

  const row = (id: string) =>
    t.db
      .selectFrom('files')
      .select(['status', 'pages', 'job_owner', 'job_lease_until', 'job_attempts'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  async function until<T>(check: () => Promise<T | undefined>): Promise<T> {
    const end = Date.now() + 30_000;
    for (;;) {
      const v = await check();
      if (v !== undefined) return v;
      if (Date.now() > end) throw new Error('not in time');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('finishes, once, a document whose instance was killed mid-way', async () => {
    const info = await uploadReady(t, token, 'handover.pdf', await makePdf(['first', 'second']));
    // As a killed instance leaves it: still processing, held by an owner that is gone, its lease run out.
    await t.db
      .updateTable('files')
      .set({
        status: 'processing',
        pages: null,
        job_owner: 'an-instance-that-died',
        job_lease_until: new Date(t.clock.now().getTime() - 1000).toISOString(),
        job_attempts: 1,
      })
      .where('id', '=', info.id)
      .execute();
    const done = await until(async () => {
      const r = await row(info.id);
      return r.status === 'processing' ? undefined : r;
    });
    // Both instances look every second; the conditional claim let exactly one of them take it.
    expect(done).toEqual({ status: 'ready', pages: 2, job_owner: null, job_lease_until: null, job_attempts: 2 });
    const pages = await t.db.selectFrom('file_pages').select('page').where('file_id', '=', info.id).execute();
    expect(pages.map((p) => p.page).sort()).toEqual([1, 2]);
  });

  it('leaves alone a document another live instance holds', async () => {
    const res = await uploadDocument(t, token, 'held.txt', Buffer.from('held'));
    await until(async () => ((await row(res.body.data.id)).status === 'processing' ? undefined : true));
    const leaseUntil = new Date(t.clock.now().getTime() + 60_000).toISOString();
    await t.db
      .updateTable('files')
      .set({ status: 'processing', job_owner: 'alive-elsewhere', job_lease_until: leaseUntil })
      .where('id', '=', res.body.data.id)
      .execute();
    const jobs = new DocumentJobsRepo(t.db, new DocumentIndexRepo(t.db));
    const now = t.clock.now().toISOString();
    expect(await jobs.claim('a-third-instance', now, leaseUntil)).toBeUndefined();
    expect(await row(res.body.data.id)).toMatchObject({ job_owner: 'alive-elsewhere', job_lease_until: leaseUntil });
    // Once that lease has run out, the document is anyone's.
    const later = new Date(t.clock.now().getTime() + 61_000).toISOString();
    const taken = await jobs.claim('a-third-instance', later, later);
    expect(taken?.id).toBe(res.body.data.id);
  });
});
