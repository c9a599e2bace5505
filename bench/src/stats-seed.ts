import crypto from 'node:crypto';
import { bulkInsert } from './bulk-insert.js';
import type { Sqlite } from './db.js';
import {
  ANSWER_DELAY_MS,
  type HistoryOptions,
  type HistoryPlan,
  STATS_MODELS,
  type StatsModel,
  planHistory,
  turnAt,
  turnsInTimeOrder,
} from './stats-history-plan.js';

/*
 * Seeding for the statistics bench: a chat history as the server would have stored it,
 * written straight into the SQLite file while no server runs. Each turn is a question,
 * its answer and the answer's `chat_consume` ledger row (reference = the answer); every
 * user's ledger opens with one grant and then runs in time order, so balance_after is
 * right on every row and the ledger sums to quota − used.
 */

/** The super administrator; the seeded users share the password (one hash for every row). */
export const STATS_ADMIN = { email: 'bench-stats-admin@bench.example.com', password: 'bench-stats-password' };

const GROUPS = ['Engineering', 'Sales', 'Support', 'Research', 'Finance', 'Legal', 'Marketing', 'Operations', 'HR'];
const TURNS_PER_TRANSACTION = 50_000;
const iso = (ms: number) => new Date(ms).toISOString();

export interface StatsSeed {
  seconds: number;
  users: number;
  groups: number;
  models: number;
  conversations: number;
  messages: number;
  ledgerRows: number;
  /** A seeded user (signs in with the administrator's password). */
  sampleEmail: string;
}

/** Writes groups, models, users and their conversations, messages and ledger. */
export function seedStatsHistory(db: Sqlite, o: HistoryOptions): StatsSeed {
  const started = performance.now();
  // Setup only, on a file no one else has open: no journal on disk, no syncs.
  db.pragma('journal_mode = MEMORY');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const plan = planHistory(o);
  const groupIds = db.transaction(() => writeGroupsAndModels(db, iso(plan.now)))();
  const accounts = db.transaction(() => writeUsers(db, plan, groupIds))();
  db.transaction(() => writeConversations(db, plan, accounts.userIds))();
  writeTurns(db, plan, accounts);
  db.pragma('synchronous = NORMAL');
  db.pragma('journal_mode = WAL');
  const turns = o.conversations * o.turnsPerConversation;
  return {
    seconds: (performance.now() - started) / 1000,
    users: o.users,
    groups: groupIds.length,
    models: STATS_MODELS.length,
    conversations: o.conversations,
    messages: 2 * turns,
    ledgerRows: turns + o.users,
    sampleEmail: 'stats.u1@bench.example.com',
  };
}

/** Nine groups beside the default one, and the models; returns every group id. */
function writeGroupsAndModels(db: Sqlite, now: string): number[] {
  const group = db.prepare(
    `insert into user_groups (name, description, color, sort_order, status, credits_pool, credits_pool_used,
       site_config_enabled, created_at, updated_at) values (?, '', '#1677ff', ?, 'active', 0, 0, 0, ?, ?)`,
  );
  const groupIds = [1];
  for (const [i, name] of GROUPS.entries()) groupIds.push(Number(group.run(name, i + 1, now, now).lastInsertRowid));
  const model = db.prepare(
    `insert into ai_models (name, display_name, provider, is_active, credits_per_chat, stream_enabled,
       image_upload_enabled, sort_order, created_at, updated_at) values (?, ?, ?, 1, ?, 1, 0, ?, ?, ?)`,
  );
  for (const [i, m] of STATS_MODELS.entries()) model.run(m.name, m.display, m.provider, m.cost, i, now, now);
  return groupIds;
}

interface Accounts {
  userIds: number[];
  /** Per user (index): the credits granted, and how many the turns written so far took. */
  quota: Float64Array;
  used: Float64Array;
}

/** The users, spread over the groups, each granted what they will spend and some more in one opening row. */
function writeUsers(db: Sqlite, plan: HistoryPlan, groupIds: number[]): Accounts {
  const { password_hash: hash } = db
    .prepare(`select password_hash from users where role = 'super_admin' order by id limit 1`)
    .get() as { password_hash: string };
  const user = db.prepare(
    `insert into users (username, email, phone, password_hash, role, status, group_id, credits_quota, credits_used,
       token_quota, token_used, created_at, updated_at, last_login_at)
     values (?, ?, null, ?, 'user', 'active', ?, ?, ?, 0, ?, ?, ?, ?)`,
  );
  const columns = ['user_id', 'transaction_type', 'amount', 'balance_after', 'description', 'created_at'];
  const grants = bulkInsert(db, 'credit_transactions', columns);
  const opened = iso(plan.since - 86_400_000);
  const now = iso(plan.now);
  const accounts: Accounts = { userIds: [], quota: new Float64Array(plan.users), used: new Float64Array(plan.users) };
  for (let i = 0; i < plan.users; i++) {
    const spent = plan.spent[i] as number;
    const quota = spent + 100 * Math.floor(plan.rand() * 50);
    const group = groupIds[i % groupIds.length] as number;
    const name = `stats_u${i + 1}`;
    const email = `stats.u${i + 1}@bench.example.com`;
    const id = Number(
      user.run(name, email, hash, group, quota, spent, plan.tokens[i], opened, now, now).lastInsertRowid,
    );
    accounts.userIds.push(id);
    accounts.quota[i] = quota;
    grants.add(id, 'system_reward', quota, quota, 'server.ledger.adminCreateGrant', opened);
  }
  grants.flush();
  return accounts;
}

function writeConversations(db: Sqlite, plan: HistoryPlan, userIds: number[]): void {
  const conversations = bulkInsert(db, 'conversations', [
    'id',
    'user_id',
    'title',
    'model_name',
    'message_count',
    'total_tokens',
    'last_message_at',
    'created_at',
    'updated_at',
  ]);
  const perConversation = plan.turnsPerConversation;
  for (let c = 0; c < plan.conversations; c++) {
    let tokens = 0;
    for (let t = c * perConversation; t < (c + 1) * perConversation; t++)
      tokens += (plan.questionTokens[t] as number) + (plan.answerTokens[t] as number);
    const last = iso(turnAt(plan, (c + 1) * perConversation - 1) + ANSWER_DELAY_MS);
    const model = (STATS_MODELS[plan.convModel[c] as number] as StatsModel).name;
    const owner = userIds[plan.convUser[c] as number];
    conversations.add(
      plan.convIds[c],
      owner,
      `Conversation ${c + 1}`,
      model,
      2 * perConversation,
      tokens,
      last,
      iso(plan.convStart[c] as number),
      last,
    );
  }
  conversations.flush();
}

/** Questions, answers and charges, oldest first, in transactions of TURNS_PER_TRANSACTION turns. */
function writeTurns(db: Sqlite, plan: HistoryPlan, accounts: Accounts): void {
  const messages = bulkInsert(db, 'messages', [
    'id',
    'conversation_id',
    'role',
    'content',
    'parent_id',
    'tokens',
    'model_name',
    'status',
    'created_at',
  ]);
  const ledger = bulkInsert(db, 'credit_transactions', [
    'user_id',
    'transaction_type',
    'amount',
    'balance_after',
    'description',
    'reference_id',
    'created_at',
  ]);
  const order = turnsInTimeOrder(plan);
  const writeSome = db.transaction((turns: Uint32Array) => {
    for (const t of turns) {
      const c = Math.floor(t / plan.turnsPerConversation);
      const k = (t % plan.turnsPerConversation) + 1;
      const u = plan.convUser[c] as number;
      const model = STATS_MODELS[plan.convModel[c] as number] as StatsModel;
      const at = turnAt(plan, t);
      const question = crypto.randomUUID();
      const answer = crypto.randomUUID();
      const conversation = plan.convIds[c];
      const asked = `Question ${k}: how would you approach this?`;
      const answered = `Answer ${k}: here is one way to approach it.`;
      messages.add(question, conversation, 'user', asked, null, plan.questionTokens[t], null, 'complete', iso(at));
      const answeredAt = iso(at + ANSWER_DELAY_MS);
      messages.add(
        answer,
        conversation,
        'assistant',
        answered,
        question,
        plan.answerTokens[t],
        model.name,
        'complete',
        answeredAt,
      );
      const used = (accounts.used[u] as number) + model.cost;
      accounts.used[u] = used;
      const balance = (accounts.quota[u] as number) - used;
      const userId = accounts.userIds[u];
      ledger.add(userId, 'chat_consume', -model.cost, balance, 'server.ledger.chatConsume', answer, iso(at));
    }
    messages.flush();
    ledger.flush();
  });
  for (let from = 0; from < order.length; from += TURNS_PER_TRANSACTION)
    writeSome(order.subarray(from, from + TURNS_PER_TRANSACTION));
}
