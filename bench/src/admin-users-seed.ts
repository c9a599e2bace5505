import type { Sqlite } from './db.js';

/*
 * Seeding for the admin bench: a large, realistic user table written straight into the
 * SQLite file while no server runs (one transaction, one password hash shared by every row).
 */

export const ADMIN = { email: 'bench-admin@bench.example.com', password: 'bench-admin-password' };

const FIRST = [
  'wei',
  'fang',
  'min',
  'jing',
  'lei',
  'yan',
  'jun',
  'hui',
  'ling',
  'tao',
  'anna',
  'david',
  'maria',
  'james',
  'sofia',
  'li',
  'chen',
  'olivia',
  'lucas',
  'emma',
];
const LAST = [
  'wang',
  'li',
  'zhang',
  'liu',
  'chen',
  'yang',
  'huang',
  'zhao',
  'wu',
  'zhou',
  'xu',
  'sun',
  'ma',
  'zhu',
  'hu',
  'guo',
  'smith',
  'garcia',
  'muller',
  'tanaka',
];
const DOMAINS = ['example.com', 'corp.example.cn', 'mail.example.org', 'example.net'];
const GROUPS = [
  { name: 'Engineering', color: '#1677ff', share: 0.35 },
  { name: 'Sales', color: '#fa8c16', share: 0.25 },
  { name: 'Support', color: '#52c41a', share: 0.2 },
  { name: 'Research', color: '#722ed1', share: 0.1 },
];
/** Part of a username shared by about one user in 400 (one first-name/surname pair of 20 × 20). */
export const SEARCH_FEW = 'emma_zhou';
export const SEARCH_NONE = 'qqzx-nobody';

/** Small deterministic generator, so every run seeds the same table. */
export function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedResult {
  users: number;
  seconds: number;
  /** id of the largest seeded group, used by the group + status filter. */
  groupId: number;
  groupIds: number[];
}

/**
 * Writes `count` users over the default group and four more, with mixed roles and
 * statuses, about 1% retired, balances between 0 and 10,000 and a matching two-row
 * ledger each (grant, then consumption), so the ledger still sums to every balance.
 */
export function seedUsers(db: Sqlite, count: number): SeedResult {
  const started = performance.now();
  const rand = mulberry32(20_251_121);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)] as T;
  const { password_hash: passwordHash } = db
    .prepare(`select password_hash from users where role = 'super_admin' order by id limit 1`)
    .get() as { password_hash: string };
  const now = Date.now();
  const nowIso = new Date(now).toISOString();
  const insertGroup = db.prepare(
    `insert into user_groups (name, description, color, sort_order, status, credits_pool, credits_pool_used,
       user_limit, site_name, site_logo, site_config_enabled, created_at, updated_at)
     values (?, ?, ?, ?, 'active', 0, 0, null, null, null, 0, ?, ?)`,
  );
  const insertUser = db.prepare(
    `insert into users (username, email, phone, password_hash, role, status, group_id, avatar_url,
       credits_quota, credits_used, credits_expire_at, token_quota, token_used, remark,
       created_at, updated_at, last_login_at, deleted_at)
     values (?, ?, ?, ?, ?, ?, ?, null, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertLedger = db.prepare(
    `insert into credit_transactions (user_id, transaction_type, amount, balance_after, description, created_at)
     values (?, ?, ?, ?, ?, ?)`,
  );
  const groupIds: number[] = [];
  db.transaction(() => {
    for (const [i, g] of GROUPS.entries()) {
      const r = insertGroup.run(g.name, `${g.name} department`, g.color, i + 1, nowIso, nowIso);
      groupIds.push(Number(r.lastInsertRowid));
    }
    const span = 3 * 365 * 86_400_000;
    for (let i = 1; i <= count; i++) {
      const first = pick(FIRST);
      const last = pick(LAST);
      const username = `${first}_${last}${i}`;
      const email = `${first}.${last}${i}@${pick(DOMAINS)}`;
      // 11-digit mobile numbers, unique: the suffix is a bijection of i below 10^9.
      const phone =
        rand() < 0.8 ? `1${3 + (i % 7)}${String((i * 7919 + 12_345) % 1_000_000_000).padStart(9, '0')}` : null;
      let g = rand();
      let groupId = 1;
      for (const [k, share] of GROUPS.map((x) => x.share).entries()) {
        if (g < share) {
          groupId = groupIds[k] as number;
          break;
        }
        g -= share;
      }
      const role = rand() < 0.005 ? 'admin' : 'user';
      const status = rand() < 0.1 ? 'inactive' : 'active';
      const quota = Math.floor(rand() * 10_000);
      const used = Math.floor(rand() * quota);
      const createdMs = now - span + Math.floor((i / count) * span);
      const createdAt = new Date(createdMs).toISOString();
      const lastLogin =
        rand() < 0.85 ? new Date(createdMs + Math.floor(rand() * (now - createdMs))).toISOString() : null;
      const retired = rand() < 0.01 ? nowIso : null;
      const r = insertUser.run(
        username,
        email,
        phone,
        passwordHash,
        role,
        status,
        groupId,
        quota,
        used,
        rand() < 0.05 ? new Date(now + 30 * 86_400_000).toISOString() : null,
        100_000,
        Math.floor(rand() * 100_000),
        rand() < 0.1 ? `Imported from HR batch ${1 + (i % 12)}` : null,
        createdAt,
        createdAt,
        lastLogin,
        retired,
      );
      const userId = Number(r.lastInsertRowid);
      insertLedger.run(userId, 'system_reward', quota, quota, 'Benchmark setup', createdAt);
      if (used > 0) insertLedger.run(userId, 'chat_consume', -used, quota - used, 'Benchmark setup', createdAt);
    }
  })();
  db.pragma('optimize');
  return {
    users: count,
    seconds: (performance.now() - started) / 1000,
    groupId: groupIds[0] as number,
    groupIds,
  };
}
