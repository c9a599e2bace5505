import type { AuditCheckpoint, AuditCheckpointRecord, AuditVerifyResult } from '@aiplatform/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminSession, auditRowsAfter, createGroupAsAdmin } from '../../../test/admin-helpers.js';
import { expectErrorEnvelope } from '../../../test/bad-input.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { resolveAppSecret } from '../../lib/auth/secrets.js';
import { keyedAuditHash } from './audit-chain.js';
import { signCheckpoint } from './audit-checkpoint.js';
import { AuditKey } from './audit-key.js';

const CHECKPOINTS = '/api/admin/audit-logs/checkpoints';
const HOUR = 3_600_000;

describe('audit checkpoints', () => {
  let t: TestApp;
  let token: string;
  let superId: number;
  beforeEach(async () => {
    t = await createTestApp();
    const s = await t.loginAsAdmin();
    token = s.accessToken;
    superId = s.user.id;
    for (let i = 0; i < 5; i += 1) await createGroupAsAdmin(t, token);
  });
  afterEach(async () => {
    await t.close();
  });

  const rows = () => auditRowsAfter(t, 0);
  const key = () => new AuditKey(resolveAppSecret(t.config.appSecret, t.config.dataDir));

  async function checkpoint(): Promise<AuditCheckpointRecord> {
    const res = await t.post<AuditCheckpointRecord>(CHECKPOINTS, undefined, token);
    expect(res.status, res.text).toBe(201);
    return res.body.data;
  }
  async function verify(): Promise<AuditVerifyResult> {
    const res = await t.get<AuditVerifyResult>('/api/admin/audit-logs/verify', token);
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  }
  /** The chain compared with a checkpoint kept outside the server. */
  function verifyAgainst(c: unknown, lang?: string) {
    return t.request<AuditVerifyResult>('POST', `${CHECKPOINTS}/verify`, { body: c, token, lang });
  }
  /** Removes the newest rows and winds the head back to the row before them, as someone with database access could. */
  async function rewind(keep: number) {
    const all = await rows();
    await t.db.deleteFrom('audit_logs').where('seq', '>', keep).execute();
    await t.db
      .updateTable('audit_chain_head')
      .set({ seq: keep, hash: all[keep - 1]!.hash })
      .where('id', '=', 1)
      .execute();
  }
  const ref = (c: AuditCheckpoint) => ({ count: c.count, created_at: c.created_at });

  it('signs the head on demand, lists it, and verify compares the chain with it', async () => {
    const all = await rows();
    const made = await checkpoint();
    expect(made).toMatchObject({
      format: 'aiplatform.audit-checkpoint.v1',
      count: 5,
      last_id: all[4]!.id,
      hash: all[4]!.hash,
      created_by: superId,
    });
    expect(Math.abs(Date.parse(made.created_at) - t.clock.now().getTime())).toBeLessThan(5000);
    expect(made.signature).toMatch(/^[0-9a-f]{64}$/);
    const list = await t.get<AuditCheckpointRecord[]>(CHECKPOINTS, token);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([made]);
    expect(list.body.pagination).toMatchObject({ total: 1, page: 1 });
    // A checkpoint adds nothing to the log itself.
    expect(await rows()).toHaveLength(5);
    expect(await verify()).toEqual({ valid: true, checked: 5, broken_at: null, problem: null, checkpoint: ref(made) });

    // The downloaded file, as kept by an administrator, verifies too (its extra fields are ignored).
    const outside = await verifyAgainst(JSON.parse(JSON.stringify(made)));
    expect(outside.status, outside.text).toBe(200);
    expect(outside.body.data).toMatchObject({ valid: true, checked: 5, checkpoint: ref(made) });
  });

  it('notices the newest rows deleted and the head wound back, against a stored or a kept checkpoint', async () => {
    const kept = await checkpoint();
    await rewind(3);
    expect(await verify()).toEqual({
      valid: false,
      checked: 3,
      broken_at: null,
      problem: 'rewound',
      checkpoint: ref(kept),
    });
    // Removing the stored checkpoints too hides it from verify, not from the copy kept outside.
    await t.db.deleteFrom('audit_checkpoints').execute();
    expect(await verify()).toMatchObject({ valid: true, checked: 3 });
    const outside = await verifyAgainst(kept);
    expect(outside.status).toBe(200);
    expect(outside.body.data).toMatchObject({ valid: false, problem: 'rewound', checkpoint: ref(kept) });
  });

  it('notices rows deleted, the head wound back and new rows written in their place', async () => {
    const kept = await checkpoint();
    await rewind(3);
    await createGroupAsAdmin(t, token);
    await createGroupAsAdmin(t, token);
    const replaced = (await rows())[4]!;
    expect(await verify()).toEqual({
      valid: false,
      checked: 5,
      broken_at: replaced.id,
      problem: 'diverged',
      checkpoint: ref(kept),
    });
  });

  it('notices a chain recomputed with the key up to a checkpoint, stored or kept outside', async () => {
    const kept = await checkpoint();
    const k = key();
    // Someone holding the application secret rewrites row 2 and recomputes every keyed hash after it.
    const all = await rows();
    let prev = all[0]!.hash;
    for (const row of all.slice(1)) {
      const { id, hash: _h, raw, changes: _c, ...content } = row;
      const changes = row.seq === 2 ? JSON.stringify({ before: null, after: { name: 'forged' } }) : raw;
      const hash = keyedAuditHash(k, { ...content, changes, prev_hash: prev });
      await t.db.updateTable('audit_logs').set({ changes, prev_hash: prev, hash }).where('id', '=', id).execute();
      prev = hash;
    }
    await t.db.updateTable('audit_chain_head').set({ hash: prev }).where('id', '=', 1).execute();
    expect(await verify()).toMatchObject({ valid: false, problem: 'diverged', broken_at: all[4]!.id });
    await t.db.deleteFrom('audit_checkpoints').execute();
    expect((await verifyAgainst(kept)).body.data).toMatchObject({ valid: false, problem: 'diverged' });
  });

  it('refuses a tampered checkpoint, kept outside or stored', async () => {
    const kept = await checkpoint();
    await rewind(3);
    const tampered: [string, AuditCheckpoint][] = [
      ['count lowered to hide the rewind', { ...kept, count: 3 }],
      ['hash replaced', { ...kept, hash: (await rows())[2]!.hash }],
      ['time moved', { ...kept, created_at: '2020-01-01T00:00:00.000Z' }],
      ['signature altered', { ...kept, signature: kept.signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) }],
      ['signed by another installation', signCheckpoint(new AuditKey('another installation secret'), kept)],
    ];
    for (const [label, c] of tampered) {
      const [en, zh] = [await verifyAgainst(c, 'en-US'), await verifyAgainst(c, 'zh-CN')];
      expectErrorEnvelope(en, label);
      expect(en.status, label).toBe(400);
      expect(en.body.error, label).toBe('AUDIT_CHECKPOINT_INVALID');
      expect(zh.body.error, label).toBe('AUDIT_CHECKPOINT_INVALID');
      expect(zh.body.message, label).not.toBe(en.body.message);
    }
    const malformed = await verifyAgainst({ ...kept, format: 'something-else', hash: 'xyz' }, 'en-US');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('VALIDATION_FAILED');
    expect((malformed.body.data as unknown as { errors: string[] }).errors).toHaveLength(2);

    // The stored one altered to match the shortened chain.
    await t.db
      .updateTable('audit_checkpoints')
      .set({ count: 3, last_id: (await rows())[2]!.id, hash: (await rows())[2]!.hash })
      .execute();
    expect(await verify()).toMatchObject({ valid: false, problem: 'checkpoint_forged', checkpoint: { count: 3 } });
  });

  it('signs one a day from the housekeeping when the log grew, and the server log keeps a copy', async () => {
    await t.housekeeping.run(t.clock.now());
    const first = (await t.db.selectFrom('audit_checkpoints').selectAll().execute()).map((r) => r.count);
    expect(first).toEqual([5]);
    // Another round, on this or another instance, the same day: nothing new.
    await t.housekeeping.run(t.clock.now());
    await createGroupAsAdmin(t, token);
    t.clock.advance(23 * HOUR);
    await t.housekeeping.run(t.clock.now());
    expect(await t.db.selectFrom('audit_checkpoints').select('count').execute()).toHaveLength(1);
    t.clock.advance(2 * HOUR);
    await t.housekeeping.run(t.clock.now());
    token = (await t.loginAsAdmin()).accessToken;
    const daily = await t.get<AuditCheckpointRecord[]>(CHECKPOINTS, token);
    expect(daily.body.data.map((c) => [c.count, c.created_by])).toEqual([
      [6, null],
      [5, null],
    ]);
    // A day later with nothing new: nothing to sign.
    t.clock.advance(48 * HOUR);
    await t.housekeeping.run(t.clock.now());
    expect(await t.db.selectFrom('audit_checkpoints').select('count').execute()).toHaveLength(2);
    token = (await t.loginAsAdmin()).accessToken;
    expect(await verify()).toMatchObject({ valid: true, checkpoint: { count: 6 } });
  });

  it('is for super administrators only', async () => {
    const g = await createGroupAsAdmin(t, token);
    const ga = await adminSession(t, token, { group_id: g.id });
    const strong = await adminSession(t, token, {
      group_id: g.id,
      extra_permissions: ['user.manage', 'group.manage', 'credits.manage', 'settings.manage'],
    });
    const kept = await checkpoint();
    for (const tk of [ga.token, strong.token]) {
      expect((await t.get(CHECKPOINTS, tk)).status).toBe(403);
      expect((await t.post(CHECKPOINTS, undefined, tk)).status).toBe(403);
      expect((await t.post(`${CHECKPOINTS}/verify`, kept, tk)).status).toBe(403);
    }
    expect((await t.post(CHECKPOINTS)).status).toBe(401);
    expect(await t.db.selectFrom('audit_checkpoints').select('id').execute()).toHaveLength(1);
  });
});

describe('audit checkpoint of an empty chain', () => {
  it('signs zero rows and the genesis hash', async () => {
    const t = await createTestApp();
    try {
      const token = (await t.loginAsAdmin()).accessToken;
      const res = await t.post<AuditCheckpointRecord>(CHECKPOINTS, undefined, token);
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ count: 0, last_id: null, hash: '0'.repeat(64) });
      await createGroupAsAdmin(t, token);
      const v = await t.get<AuditVerifyResult>('/api/admin/audit-logs/verify', token);
      expect(v.body.data).toMatchObject({ valid: true, checked: 1, checkpoint: { count: 0 } });
    } finally {
      await t.close();
    }
  });
});
