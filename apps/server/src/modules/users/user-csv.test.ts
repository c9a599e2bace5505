import { USER_CSV_IMPORT_COLUMNS } from '@aiplatform/contracts';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  createGroupAsAdmin,
  createUserAsAdmin,
  expectEveryLedgerConsistent,
  importCsv,
  ledgerRows,
  toCsv,
  uniquePhone,
} from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';

const EXPORT_URL = '/api/admin/users/export.csv';

async function exportCsv(t: TestApp, token: string, query = '') {
  const res = await t.app.inject({
    method: 'GET',
    url: `${EXPORT_URL}${query ? `?${query}` : ''}`,
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.statusCode, headers: res.headers, text: res.body, raw: res.rawPayload };
}

function rowsOf(text: string): Record<string, string>[] {
  return parse(text, { bom: true, columns: true, skip_empty_lines: true });
}

describe('user CSV', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('export', () => {
    it('streams the filtered list as UTF-8 CSV with a BOM and a header row', async () => {
      const group = await createGroupAsAdmin(t, token, { name: `销售部 ${unique()}` });
      const phone = uniquePhone();
      const a = await createUserAsAdmin(t, token, {
        group_id: group.id,
        phone,
        remark: '北京办公室, "A" 座',
        credits_quota: 70,
      });
      const b = await createUserAsAdmin(t, token, { group_id: group.id, role: 'admin' });
      await createUserAsAdmin(t, token); // another group: not in the export below

      const res = await exportCsv(t, token, `group_id=${group.id}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="users-\d+\.csv"$/);
      expect([...res.raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = res.text.replace(/^\uFEFF/, '').split(/\r?\n/);
      expect(lines[0]).toBe(
        'id,username,email,phone,role,status,group_id,group_name,credits_quota,credits_used,credits_remaining,credits_expire_at,token_quota,token_used,remark,created_at,last_login_at',
      );
      const rows = rowsOf(res.text);
      expect(rows.map((r) => Number(r.id))).toEqual([a.id, b.id]);
      expect(rows[0]).toMatchObject({
        username: a.username,
        email: a.email,
        phone,
        role: 'user',
        group_id: String(group.id),
        group_name: group.name,
        credits_remaining: '70',
        remark: '北京办公室, "A" 座',
      });

      // The same filters as the list.
      expect(
        rowsOf((await exportCsv(t, token, `group_id=${group.id}&role=admin`)).text).map((r) => Number(r.id)),
      ).toEqual([b.id]);
      expect(rowsOf((await exportCsv(t, token, `search=${a.username}`)).text).map((r) => Number(r.id))).toEqual([a.id]);
      expect(rowsOf((await exportCsv(t, token, `group_id=${group.id}&status=inactive`)).text)).toEqual([]);
      // Retired accounts are not exported.
      await t.request('DELETE', `/api/admin/users/${b.id}`, { token });
      expect(rowsOf((await exportCsv(t, token, `group_id=${group.id}`)).text).map((r) => Number(r.id))).toEqual([a.id]);
    });

    it('neutralises cells a spreadsheet would run as formulas', async () => {
      const group = await createGroupAsAdmin(t, token);
      const formulas = ['=SUM(1)', '+1+1', '-2+3', '@cmd', 'plain = text'];
      for (const remark of formulas) await createUserAsAdmin(t, token, { group_id: group.id, remark });
      const rows = rowsOf((await exportCsv(t, token, `group_id=${group.id}`)).text);
      expect(rows.map((r) => r.remark)).toEqual(["'=SUM(1)", "'+1+1", "'-2+3", "'@cmd", 'plain = text']);
      // Numbers stay numbers.
      expect(rows[0]!.credits_quota).toMatch(/^\d+$/);
    });

    it('shows a group administrator only their group', async () => {
      const group = await createGroupAsAdmin(t, token);
      const member = await createUserAsAdmin(t, token, { group_id: group.id });
      const groupAdmin = await createUserAsAdmin(t, token, { group_id: group.id, role: 'admin' });
      const theirs = (await t.tokensFor(groupAdmin.email, groupAdmin.password)).accessToken;
      const ids = rowsOf((await exportCsv(t, theirs)).text).map((r) => Number(r.id));
      expect(ids.sort((x, y) => x - y)).toEqual([member.id, groupAdmin.id]);
    });
  });

  describe('import', () => {
    const header = USER_CSV_IMPORT_COLUMNS;

    it('reports every bad row on a dry run and writes nothing', async () => {
      const taken = await createUserAsAdmin(t, token);
      const s = unique();
      const file = toCsv(header, [
        [`ok_${s}`, `ok_${s}@example.com`, 'secret123', '', 'user', 1, 10, 'fine'],
        [`bad_${s}`, 'not-an-email', 'secret123', '', '', '', '', ''],
        [`dup_${s}`, `dup1_${s}@example.com`, 'secret123', '', '', '', '', ''],
        [`DUP_${s}`, `dup2_${s}@example.com`, 'secret123', '', '', '', '', ''],
        [`x_${s}`, taken.email, 'secret123', '', '', '', '', ''],
        [`g_${s}`, `g_${s}@example.com`, 'secret123', '', '', 999999, '', ''],
        [`p_${s}`, `p_${s}@example.com`, '123', '', '', '', -5, ''],
        [`r_${s}`, `r_${s}@example.com`, 'secret123', '', 'emperor', '', '', ''],
        [`h_${s}`, `h_${s}@example.com`, 'secret123', '', '', 99999999999, '', ''],
      ]);
      const users = await countRows(t, 'users');
      const ledger = await countRows(t, 'credit_transactions');
      const res = await importCsv(t, token, file, true);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ dry_run: true, total: 9, valid: 2, created: 0 });
      expect(res.body.data.errors.map((e) => e.row)).toEqual([3, 5, 6, 7, 8, 9, 10]);
      const byRow = new Map(res.body.data.errors.map((e) => [e.row, e.errors]));
      expect(byRow.get(5)!.join(' ')).toMatch(/row 4/);
      expect(byRow.get(6)).toContain('This email is already registered');
      expect(byRow.get(7)).toContain('The group does not exist');
      expect(byRow.get(8)!.length).toBeGreaterThanOrEqual(2);
      expect(byRow.get(10)).toEqual(['The group does not exist']);
      expect(await countRows(t, 'users')).toBe(users);
      expect(await countRows(t, 'credit_transactions')).toBe(ledger);

      // Without dry_run the same file is refused as a whole, with the same report.
      const real = await importCsv(t, token, file);
      expect(real.status).toBe(400);
      expect(real.body.error).toBe('CSV_INVALID');
      expect(real.body.data).toMatchObject({ dry_run: false, total: 9, valid: 2, created: 0 });
      expect(real.body.data.errors).toEqual(res.body.data.errors);
      expect(await countRows(t, 'users')).toBe(users);
      expect(await countRows(t, 'credit_transactions')).toBe(ledger);
      expect(await t.db.selectFrom('users').select('id').where('email', '=', `ok_${s}@example.com`).execute()).toEqual(
        [],
      );
    });

    it('refuses a file with more members than the group has places', async () => {
      const group = await createGroupAsAdmin(t, token, { user_limit: 2 });
      await createUserAsAdmin(t, token, { group_id: group.id });
      const s = unique();
      const file = toCsv(header, [
        [`l1_${s}`, `l1_${s}@example.com`, 'secret123', '', '', group.id, '', ''],
        [`l2_${s}`, `l2_${s}@example.com`, 'secret123', '', '', group.id, '', ''],
      ]);
      const res = await importCsv(t, token, file);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('CSV_INVALID');
      expect(res.body.data.errors.map((e) => e.errors)).toEqual([
        ['The group has reached its member limit'],
        ['The group has reached its member limit'],
      ]);
      expect(
        (await t.get<{ user_count: number }>(`/api/admin/user-groups/${group.id}`, token)).body.data.user_count,
      ).toBe(1);
    });

    it('refuses an empty or unreadable file', async () => {
      for (const file of [Buffer.from(''), Buffer.from(`${header.join(',')}\n`), Buffer.from('a,"b\n')]) {
        const res = await importCsv(t, token, file, true);
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('CSV_INVALID');
        expect((res.body.data as unknown as { errors: string[] }).errors.length).toBeGreaterThan(0);
      }
    });

    it('round-trips an export into another installation, all rows in one go', async () => {
      const group = await createGroupAsAdmin(t, token);
      const source = [
        await createUserAsAdmin(t, token, {
          group_id: group.id,
          phone: uniquePhone(),
          remark: '研发',
          credits_quota: 120,
        }),
        await createUserAsAdmin(t, token, { group_id: group.id, credits_quota: 0 }),
        await createUserAsAdmin(t, token, { group_id: group.id, role: 'admin', credits_quota: 35 }),
      ];
      const exported = rowsOf((await exportCsv(t, token, `group_id=${group.id}`)).text);
      expect(exported).toHaveLength(3);

      const other = await createTestApp();
      try {
        const otherToken = (await other.loginAsAdmin()).accessToken;
        const target = await createGroupAsAdmin(other, otherToken);
        const file = toCsv(
          header,
          exported.map((r) => [
            r.username!,
            r.email!,
            'imported123',
            r.phone!,
            r.role!,
            target.id,
            r.credits_remaining!,
            r.remark!,
          ]),
        );
        const dry = await importCsv(other, otherToken, file, true);
        expect(dry.status).toBe(200);
        expect(dry.body.data).toEqual({ dry_run: true, total: 3, valid: 3, created: 0, errors: [] });
        expect(await countRows(other, 'users')).toBe(1);

        const res = await importCsv(other, otherToken, file, false);
        expect(res.status).toBe(201);
        expect(res.body.data).toEqual({ dry_run: false, total: 3, valid: 3, created: 3, errors: [] });

        const imported = await other.db
          .selectFrom('users')
          .selectAll()
          .where('group_id', '=', target.id)
          .orderBy('id')
          .execute();
        expect(
          imported.map((u) => [u.username, u.email, u.phone, u.role, u.remark, u.credits_quota - u.credits_used]),
        ).toEqual(source.map((u) => [u.username, u.email, u.phone, u.role, u.remark, u.credits_stats.remaining]));
        // One transaction: one moment for every row.
        expect(new Set(imported.map((u) => u.created_at)).size).toBe(1);
        for (const u of imported) {
          const rows = await ledgerRows(other, u.id);
          const balance = u.credits_quota - u.credits_used;
          expect(rows.map((r) => [r.transaction_type, r.amount])).toEqual(
            balance > 0 ? [['system_reward', balance]] : [],
          );
        }
        await expectEveryLedgerConsistent(other);
        expect((await other.tokensFor(source[0]!.email, 'imported123')).user.id).toBe(imported[0]!.id);

        // Importing the same file again conflicts with every row and writes nothing.
        const again = await importCsv(other, otherToken, file, false);
        expect(again.status).toBe(400);
        expect(again.body.data.errors.map((e) => e.row)).toEqual([2, 3, 4]);
        expect(await countRows(other, 'users')).toBe(4);
      } finally {
        await other.close();
      }
    });

    it('puts a group administrator’s imports into their group as plain users', async () => {
      const group = await createGroupAsAdmin(t, token);
      const groupAdmin = await createUserAsAdmin(t, token, { group_id: group.id, role: 'admin' });
      const theirs = (await t.tokensFor(groupAdmin.email, groupAdmin.password)).accessToken;
      const s = unique();
      const refused = await importCsv(
        t,
        theirs,
        toCsv(header, [
          [`ga1_${s}`, `ga1_${s}@example.com`, 'secret123', '', 'admin', '', '', ''],
          [`ga2_${s}`, `ga2_${s}@example.com`, 'secret123', '', '', '', 50, ''],
          [`ga3_${s}`, `ga3_${s}@example.com`, 'secret123', '', '', 1, '', ''],
        ]),
        true,
      );
      expect(refused.body.data.errors.map((e) => e.errors)).toEqual([
        ['You may not create administrators'],
        ['You may not set opening credits'],
        ['You may only add users to your own group'],
      ]);
      const ok = await importCsv(
        t,
        theirs,
        toCsv(header, [[`ga4_${s}`, `ga4_${s}@example.com`, 'secret123', '', '', '', '', '']]),
        false,
      );
      expect(ok.status).toBe(201);
      const row = await t.db
        .selectFrom('users')
        .selectAll()
        .where('username', '=', `ga4_${s}`)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ group_id: group.id, role: 'user' });
    });
  });
});
