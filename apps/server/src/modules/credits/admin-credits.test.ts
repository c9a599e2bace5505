import crypto from 'node:crypto';
import type { CreditTransaction } from '@aiplatform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  adjustCredits,
  adminSession,
  countRows,
  createUserAsAdmin,
  expectEveryLedgerConsistent,
  ledgerRows,
} from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { CreditsRepo } from './credits.repo.js';

const DAY_MS = 86_400_000;
const historyUrl = (id: number, query = '') => `/api/admin/users/${id}/credits/history${query ? `?${query}` : ''}`;

describe('admin credits', () => {
  let t: TestApp;
  let token: string;
  let adminId: number;
  beforeAll(async () => {
    t = await createTestApp();
    const session = await t.loginAsAdmin();
    token = session.accessToken;
    adminId = session.user.id;
  });
  afterEach(async () => {
    await expectEveryLedgerConsistent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A fresh account holding exactly `credits`. */
  const userWith = (credits: number) => createUserAsAdmin(t, token, { credits_quota: credits });
  const balanceOf = async (id: number) => {
    const row = await t.userRow(id);
    return row.credits_quota - row.credits_used;
  };
  const key = () => crypto.randomUUID();

  describe('add, deduct, set', () => {
    it('requires a reason, with the message in the caller’s language', async () => {
      const u = await userWith(10);
      const before = await countRows(t, 'credit_transactions');
      for (const [lang, text] of [
        ['zh-CN', '请输入原因'],
        ['en-US', 'Please enter a reason'],
      ] as const) {
        for (const body of [
          { operation: 'add', amount: 5 },
          { operation: 'add', amount: 5, reason: '   ' },
          { operation: 'deduct', amount: 5, reason: '' },
        ]) {
          const res = await adjustCredits(t, token, u.id, body, { lang });
          expect(res.status).toBe(400);
          expect(res.body.error).toBe('VALIDATION_FAILED');
          expect(res.body.message).toBe(text);
          expect((res.body.data as unknown as { errors: string[] }).errors).toContain(text);
        }
      }
      const tooLong = await adjustCredits(
        t,
        token,
        u.id,
        { operation: 'add', amount: 5, reason: 'x'.repeat(201) },
        { lang: 'en-US' },
      );
      expect(tooLong.status).toBe(400);
      expect(await countRows(t, 'credit_transactions')).toBe(before);
      expect(await balanceOf(u.id)).toBe(10);
    });

    it('validates the amount and the operation', async () => {
      const u = await userWith(10);
      const before = await countRows(t, 'credit_transactions');
      for (const body of [
        { operation: 'add', amount: 0 },
        { operation: 'deduct', amount: 0 },
        { operation: 'add', amount: -5 },
        { operation: 'add', amount: 1.5 },
        { operation: 'add', amount: '5' },
        { operation: 'add', amount: 1_000_000_001 },
        { operation: 'set', amount: -1 },
        { operation: 'add' },
        { operation: 'grant', amount: 5 },
        { operation: 'add', amount: 5, extend_days: -1 },
        { operation: 'add', amount: 5, extend_days: 3651 },
      ]) {
        const res = await adjustCredits(t, token, u.id, { reason: 'test', ...body }, { lang: 'en-US' });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error).toBe('VALIDATION_FAILED');
      }
      const zero = await adjustCredits(
        t,
        token,
        u.id,
        { operation: 'add', amount: 0, reason: 'test' },
        { lang: 'en-US' },
      );
      expect(zero.body.message).toBe('The amount must be greater than 0');
      expect(await countRows(t, 'credit_transactions')).toBe(before);
      expect(await balanceOf(u.id)).toBe(10);
    });

    it('adds and deducts, writing one ledger row each with operator and reason', async () => {
      const u = await userWith(100);
      const add = await adjustCredits(t, token, u.id, { operation: 'add', amount: 25, reason: 'Q3 bonus' });
      expect(add.status).toBe(200);
      expect(add.body.data.user.credits_stats.remaining).toBe(125);
      expect(add.body.data.transaction).toMatchObject({
        user_id: u.id,
        transaction_type: 'admin_add',
        amount: 25,
        balance_after: 125,
        operator_id: adminId,
        operator_username: 'admin',
        reason: 'Q3 bonus',
      });
      const deduct = await adjustCredits(t, token, u.id, { operation: 'deduct', amount: 40, reason: 'correction' });
      expect(deduct.status).toBe(200);
      expect(deduct.body.data.transaction).toMatchObject({
        transaction_type: 'admin_deduct',
        amount: -40,
        balance_after: 85,
      });
      expect(await balanceOf(u.id)).toBe(85);
      const rows = await ledgerRows(t, u.id);
      expect(rows.map((r) => [r.transaction_type, r.amount, r.balance_after, r.operator_id, r.reason])).toEqual([
        ['system_reward', 100, 100, adminId, null],
        ['admin_add', 25, 125, adminId, 'Q3 bonus'],
        ['admin_deduct', -40, 85, adminId, 'correction'],
      ]);
      // Deducting the whole balance is allowed.
      expect((await adjustCredits(t, token, u.id, { operation: 'deduct', amount: 85, reason: 'all' })).status).toBe(
        200,
      );
      expect(await balanceOf(u.id)).toBe(0);
    });

    it('refuses a deduction beyond the balance with 402 INSUFFICIENT_CREDITS, writing nothing', async () => {
      const u = await userWith(30);
      const before = { ledger: await countRows(t, 'credit_transactions'), audit: await countRows(t, 'audit_logs') };
      const res = await adjustCredits(
        t,
        token,
        u.id,
        { operation: 'deduct', amount: 31, reason: 'too much', extend_days: 30 },
        { lang: 'en-US' },
      );
      expect(res.status).toBe(402);
      expect(res.body.error).toBe('INSUFFICIENT_CREDITS');
      expect(res.body.data).toEqual({ required: 31, balance: 30 });
      expect(res.body.message).toBe('Insufficient credits: 31 needed, balance 30');
      expect(await countRows(t, 'credit_transactions')).toBe(before.ledger);
      expect(await countRows(t, 'audit_logs')).toBe(before.audit);
      const row = await t.userRow(u.id);
      expect(row.credits_quota - row.credits_used).toBe(30);
      expect(row.credits_expire_at).toBeNull();
    });

    it('sets a balance with one admin_set row whose amount is the difference', async () => {
      const u = await userWith(100);
      const down = await adjustCredits(t, token, u.id, { operation: 'set', amount: 30, reason: 'reset' });
      expect(down.status).toBe(200);
      expect(down.body.data.transaction).toMatchObject({
        transaction_type: 'admin_set',
        amount: -70,
        balance_after: 30,
      });
      const up = await adjustCredits(t, token, u.id, { operation: 'set', amount: 250, reason: 'raise' });
      expect(up.body.data.transaction).toMatchObject({
        transaction_type: 'admin_set',
        amount: 220,
        balance_after: 250,
      });
      const same = await adjustCredits(t, token, u.id, { operation: 'set', amount: 250, reason: 'confirm' });
      expect(same.status).toBe(200);
      expect(same.body.data.transaction).toMatchObject({
        transaction_type: 'admin_set',
        amount: 0,
        balance_after: 250,
      });
      const zero = await adjustCredits(t, token, u.id, { operation: 'set', amount: 0, reason: 'empty' });
      expect(zero.body.data.transaction).toMatchObject({ amount: -250, balance_after: 0 });
      const sets = (await ledgerRows(t, u.id)).filter((r) => r.transaction_type === 'admin_set');
      expect(sets.map((r) => r.amount)).toEqual([-70, 220, 0, -250]);
      expect(await balanceOf(u.id)).toBe(0);
    });

    it('extends the expiry from now when unset or past, and from the expiry when it lies ahead', async () => {
      const u = await userWith(10);
      const start = t.clock.now().getTime();
      const first = await adjustCredits(t, token, u.id, { operation: 'add', amount: 1, reason: 'x', extend_days: 30 });
      const firstExpiry = Date.parse(first.body.data.user.credits_expire_at!);
      expect(firstExpiry).toBeGreaterThanOrEqual(start + 30 * DAY_MS);
      expect(firstExpiry).toBeLessThan(start + 30 * DAY_MS + 60_000);
      expect((await t.userRow(u.id)).credits_expire_at).toBe(first.body.data.user.credits_expire_at);

      const second = await adjustCredits(t, token, u.id, { operation: 'set', amount: 5, reason: 'x', extend_days: 10 });
      expect(Date.parse(second.body.data.user.credits_expire_at!)).toBe(firstExpiry + 10 * DAY_MS);
      // extend_days 0 or absent leaves the expiry alone.
      const same = await adjustCredits(t, token, u.id, { operation: 'add', amount: 1, reason: 'x', extend_days: 0 });
      expect(same.body.data.user.credits_expire_at).toBe(second.body.data.user.credits_expire_at);

      const past = new Date(start - 5 * DAY_MS).toISOString();
      await t.db.updateTable('users').set({ credits_expire_at: past }).where('id', '=', u.id).execute();
      const fromNow = await adjustCredits(t, token, u.id, {
        operation: 'deduct',
        amount: 1,
        reason: 'x',
        extend_days: 2,
      });
      const renewed = Date.parse(fromNow.body.data.user.credits_expire_at!);
      expect(renewed).toBeGreaterThanOrEqual(start + 2 * DAY_MS);
      expect(renewed).toBeLessThan(start + 2 * DAY_MS + 60_000);
      expect(fromNow.body.data.user.credits_stats.isExpired).toBe(false);
    });

    it('leaves group administrators without add, deduct or set', async () => {
      const groupAdmin = await adminSession(t, token);
      const member = await userWith(10);
      const res = await adjustCredits(t, groupAdmin.token, member.id, {
        operation: 'add',
        amount: 5,
        reason: 'x',
      });
      expect(res.status).toBe(403);
      expect(await balanceOf(member.id)).toBe(10);
      expect((await adjustCredits(t, token, 999999, { operation: 'add', amount: 5, reason: 'x' })).status).toBe(404);
    });
  });

  describe('history', () => {
    it('lists a user’s ledger newest first, filtered by type, with translated descriptions', async () => {
      const u = await userWith(50);
      await adjustCredits(t, token, u.id, { operation: 'add', amount: 10, reason: 'one' });
      await adjustCredits(t, token, u.id, { operation: 'deduct', amount: 5, reason: 'two' });
      await adjustCredits(t, token, u.id, { operation: 'add', amount: 3, reason: 'three' });

      const all = await t.get<CreditTransaction[]>(historyUrl(u.id), token, 'en-US');
      expect(all.status).toBe(200);
      expect(all.body.data.map((r) => r.transaction_type)).toEqual([
        'admin_add',
        'admin_deduct',
        'admin_add',
        'system_reward',
      ]);
      expect(all.body.pagination).toMatchObject({ page: 1, total: 4, hasNext: false });
      expect(all.body.data[0]).toMatchObject({
        amount: 3,
        balance_after: 58,
        reason: 'three',
        operator_id: adminId,
        operator_username: 'admin',
        description: 'Credits added by an administrator',
      });
      expect(all.body.data[1]!.description).toBe('Credits deducted by an administrator');
      expect(all.body.data[3]!.description).toBe('Initial credits of an account created by an administrator');

      const zh = await t.get<CreditTransaction[]>(historyUrl(u.id), token, 'zh-CN');
      expect(zh.body.data.map((r) => r.description).slice(0, 2)).toEqual(['管理员充值', '管理员扣除']);

      const adds = await t.get<CreditTransaction[]>(historyUrl(u.id, 'type=admin_add'), token);
      expect(adds.body.data.map((r) => r.reason)).toEqual(['three', 'one']);
      expect(adds.body.pagination?.total).toBe(2);
      const paged = await t.get<CreditTransaction[]>(historyUrl(u.id, 'limit=1&page=2'), token);
      expect(paged.body.data.map((r) => r.reason)).toEqual(['two']);
      expect(paged.body.pagination).toMatchObject({
        page: 2,
        limit: 1,
        total: 4,
        totalPages: 4,
        hasNext: true,
        hasPrev: true,
      });
      // An unknown type is ignored, not refused.
      expect((await t.get<CreditTransaction[]>(historyUrl(u.id, 'type=bogus'), token)).body.data).toHaveLength(4);
      expect((await t.get(historyUrl(999999), token)).status).toBe(404);
    });
  });

  describe('concurrency', () => {
    it('lets exactly 30 of 50 parallel deductions of 1 through a balance of 30', async () => {
      const u = await userWith(30);
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          adjustCredits(t, token, u.id, { operation: 'deduct', amount: 1, reason: `race ${i}` }),
        ),
      );
      const ok = results.filter((r) => r.status === 200);
      const refused = results.filter((r) => r.status !== 200);
      expect(ok).toHaveLength(30);
      expect(refused).toHaveLength(20);
      for (const r of refused) {
        expect(r.status).toBe(402);
        expect(r.body.error).toBe('INSUFFICIENT_CREDITS');
      }
      // Every success saw a different balance: no two deductions raced past each other.
      expect(new Set(ok.map((r) => r.body.data.transaction.balance_after)).size).toBe(30);
      const row = await t.userRow(u.id);
      expect(row.credits_quota - row.credits_used).toBe(0);
      expect(await new CreditsRepo(t.db).ledgerSum(u.id)).toBe(row.credits_quota - row.credits_used);
      expect((await ledgerRows(t, u.id)).filter((r) => r.transaction_type === 'admin_deduct')).toHaveLength(30);
    });
  });

  describe('idempotency', () => {
    it('applies a repeated Idempotency-Key once and answers the same transaction', async () => {
      const u = await userWith(0);
      const k = key();
      const body = { operation: 'add', amount: 10, reason: 'once' };
      const first = await adjustCredits(t, token, u.id, body, { idempotencyKey: k });
      const second = await adjustCredits(t, token, u.id, body, { idempotencyKey: k });
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.body.data.transaction.id).toBe(first.body.data.transaction.id);
      expect(second.body.data).toEqual(first.body.data);
      expect(await balanceOf(u.id)).toBe(10);
      expect((await ledgerRows(t, u.id)).filter((r) => r.transaction_type === 'admin_add')).toHaveLength(1);
    });

    it('applies 5 concurrent requests with one key once', async () => {
      const u = await userWith(100);
      const k = key();
      const body = { operation: 'deduct', amount: 7, reason: 'double click' };
      const results = await Promise.all(
        Array.from({ length: 5 }, () => adjustCredits(t, token, u.id, body, { idempotencyKey: k })),
      );
      for (const r of results) expect(r.status, r.text).toBe(200);
      expect(new Set(results.map((r) => r.body.data.transaction.id)).size).toBe(1);
      expect(await balanceOf(u.id)).toBe(93);
      expect((await ledgerRows(t, u.id)).filter((r) => r.transaction_type === 'admin_deduct')).toHaveLength(1);
    });

    it('refuses the same key with a different body, and applies different keys twice', async () => {
      const u = await userWith(0);
      const k = key();
      expect(
        (await adjustCredits(t, token, u.id, { operation: 'add', amount: 10, reason: 'a' }, { idempotencyKey: k }))
          .status,
      ).toBe(200);
      for (const body of [
        { operation: 'add', amount: 11, reason: 'a' },
        { operation: 'add', amount: 10, reason: 'b' },
        { operation: 'deduct', amount: 10, reason: 'a' },
      ]) {
        const res = await adjustCredits(t, token, u.id, body, { idempotencyKey: k });
        expect(res.status).toBe(409);
        expect(res.body.error).toBe('IDEMPOTENCY_KEY_REUSED');
      }
      // The same key and body for another user is another request too.
      const other = await userWith(0);
      const elsewhere = await adjustCredits(
        t,
        token,
        other.id,
        { operation: 'add', amount: 10, reason: 'a' },
        { idempotencyKey: k },
      );
      expect(elsewhere.status).toBe(409);
      expect(await balanceOf(other.id)).toBe(0);
      expect(await balanceOf(u.id)).toBe(10);

      const body = { operation: 'add', amount: 10, reason: 'a' };
      const a = await adjustCredits(t, token, u.id, body, { idempotencyKey: key() });
      const b = await adjustCredits(t, token, u.id, body, { idempotencyKey: key() });
      const c = await adjustCredits(t, token, u.id, body);
      const d = await adjustCredits(t, token, u.id, body);
      expect(new Set([a, b, c, d].map((r) => r.body.data.transaction.id)).size).toBe(4);
      expect(await balanceOf(u.id)).toBe(50);
    });

    it('keeps no key for a refused request, so it can be retried', async () => {
      const u = await userWith(5);
      const k = key();
      const body = { operation: 'deduct', amount: 8, reason: 'retry' };
      expect((await adjustCredits(t, token, u.id, body, { idempotencyKey: k })).status).toBe(402);
      await adjustCredits(t, token, u.id, { operation: 'add', amount: 5, reason: 'top up' });
      const retry = await adjustCredits(t, token, u.id, body, { idempotencyKey: k });
      expect(retry.status).toBe(200);
      expect(await balanceOf(u.id)).toBe(2);
    });

    it('keeps keys per operator', async () => {
      const manager = await adminSession(t, token, { extra_permissions: ['credits.manage'] });
      const u = await userWith(0);
      const k = key();
      const body = { operation: 'add', amount: 4, reason: 'each' };
      const mine = await adjustCredits(t, token, u.id, body, { idempotencyKey: k });
      const theirs = await adjustCredits(t, manager.token, u.id, body, { idempotencyKey: k });
      expect(mine.status).toBe(200);
      expect(theirs.status).toBe(200);
      expect(theirs.body.data.transaction.id).not.toBe(mine.body.data.transaction.id);
      expect(theirs.body.data.transaction.operator_id).toBe(manager.user.id);
      expect(await balanceOf(u.id)).toBe(8);
    });
  });
});
