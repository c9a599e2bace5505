import type { AuditVerifyResult } from '@aiplatform/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditRowsAfter, createGroupAsAdmin } from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { migrateDownTo } from '../../db/migrate.js';
import { resolveAppSecret } from '../../lib/auth/secrets.js';
import { GENESIS_HASH, keyedAuditHash, plainAuditHash } from './audit-chain.js';
import { AuditKey } from './audit-key.js';

/**
 * A log written before the chain was keyed: the rows keep their plain hashes and still
 * verify; rows written since are keyed; and the cut-over between them cannot be moved.
 */
describe('audit chain keyed from an upgrade on', () => {
  let t: TestApp;
  let token: string;
  beforeEach(async () => {
    t = await createTestApp();
    token = (await t.loginAsAdmin()).accessToken;
    for (let i = 0; i < 3; i += 1) await createGroupAsAdmin(t, token);
    await asBeforeTheKey();
    token = (await t.loginAsAdmin()).accessToken;
  });
  afterEach(async () => {
    await t.close();
  });

  const rows = () => auditRowsAfter(t, 0);
  const key = () => new AuditKey(resolveAppSecret(t.config.appSecret, t.config.dataDir));
  async function verify(): Promise<AuditVerifyResult> {
    const res = await t.get<AuditVerifyResult>('/api/admin/audit-logs/verify', token);
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  }

  /**
   * Rewrites rows from `fromSeq` (through `throughSeq`, else to the head) in the plain
   * format, as the code before the key did, or as a forger does.
   */
  async function rewritePlain(fromSeq: number, edit?: (seq: number, changes: string) => string, throughSeq?: number) {
    const all = await rows();
    let prev = fromSeq === 1 ? GENESIS_HASH : all[fromSeq - 2]!.hash;
    for (const row of all.slice(fromSeq - 1, throughSeq)) {
      const { id, hash: _h, raw, changes: _c, ...content } = row;
      const changes = edit ? edit(row.seq, raw) : raw;
      const hash = plainAuditHash({ ...content, changes, prev_hash: prev });
      await t.db.updateTable('audit_logs').set({ changes, prev_hash: prev, hash }).where('id', '=', id).execute();
      prev = hash;
    }
    if (throughSeq === undefined)
      await t.db.updateTable('audit_chain_head').set({ hash: prev }).where('id', '=', 1).execute();
  }

  /**
   * Turns the database into one written before the key: migration 0016 and every later one
   * undone (the migrator requires them in order), the rows rewritten with plain hashes,
   * then a restart, which runs the migrations on them.
   */
  async function asBeforeTheKey() {
    await migrateDownTo(t.db, { appSecret: 'unused' }, '0015-message-versions');
    await rewritePlain(1);
    await t.reopen();
  }

  it('verifies the rows written before the key as they were, and keys every row since', async () => {
    const head = await t.db.selectFrom('audit_chain_head').selectAll().executeTakeFirstOrThrow();
    expect(Number(head.keyed_from)).toBe(4);
    expect(await verify()).toEqual({ valid: true, checked: 3, broken_at: null, problem: null, checkpoint: null });

    await createGroupAsAdmin(t, token);
    await createGroupAsAdmin(t, token);
    const all = await rows();
    const k = key();
    for (const row of all) {
      const { id: _id, hash, raw: _raw, changes: _c, ...content } = row;
      const c = { ...content, changes: row.raw };
      expect(hash, `row ${row.seq}`).toBe(row.seq < 4 ? plainAuditHash(c) : keyedAuditHash(k, c));
    }
    expect(await verify()).toEqual({ valid: true, checked: 5, broken_at: null, problem: null, checkpoint: null });
  });

  it('notices an old row rewritten and the old rows recomputed, with or without keyed rows after them', async () => {
    const forge = (seq: number, raw: string) => (seq === 2 ? raw.replace('"after":{', '"after":{"forged":true,') : raw);
    // Only old rows yet: the sealed cut-over names the hash they ended with.
    await rewritePlain(1, forge);
    expect(await verify()).toMatchObject({ valid: false, problem: 'keying' });

    await rewritePlain(1, (_seq, raw) => raw.replace('"forged":true,', ''));
    expect(await verify()).toMatchObject({ valid: true, checked: 3 });
    await createGroupAsAdmin(t, token);
    await rewritePlain(1, forge, 3);
    // The old rows no longer end where the sealed cut-over says (nor where the first keyed row, which cannot be recomputed, follows).
    expect(await verify()).toMatchObject({ valid: false, problem: 'keying', checked: 3 });
  });

  it('notices the cut-over moved so that the whole chain could be recomputed in the plain format', async () => {
    await createGroupAsAdmin(t, token);
    await createGroupAsAdmin(t, token);
    await rewritePlain(4, (seq, raw) => (seq === 5 ? raw.replace('"after":{', '"after":{"forged":true,') : raw));
    await t.db.updateTable('audit_chain_head').set({ keyed_from: 6 }).where('id', '=', 1).execute();
    expect(await verify()).toEqual({ valid: false, checked: 5, broken_at: null, problem: 'keying', checkpoint: null });
    // Nor can the cut-over be moved to the start, or past the head.
    for (const keyedFrom of [1, 99]) {
      await t.db.updateTable('audit_chain_head').set({ keyed_from: keyedFrom }).where('id', '=', 1).execute();
      expect(await verify(), `keyed_from ${keyedFrom}`).toMatchObject({ valid: false, problem: 'keying' });
    }
  });
});
