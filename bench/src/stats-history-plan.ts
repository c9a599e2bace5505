import crypto from 'node:crypto';
import { mulberry32 } from './admin-users-seed.js';

/*
 * The chat history of the statistics bench, planned in memory before anything is
 * written: who owns each conversation, its model and start, the tokens of every turn,
 * and what each user spent. Deterministic apart from the ids.
 */

export const STATS_MODELS = [
  { name: 'gpt-4.1-mini', display: 'GPT-4.1 mini', provider: 'openai', cost: 2, share: 0.45 },
  { name: 'gpt-4.1', display: 'GPT-4.1', provider: 'openai', cost: 10, share: 0.25 },
  { name: 'claude-sonnet-4', display: 'Claude Sonnet 4', provider: 'anthropic', cost: 15, share: 0.2 },
  { name: 'gemini-2.5-flash', display: 'Gemini 2.5 Flash', provider: 'google', cost: 1, share: 0.1 },
] as const;
export type StatsModel = (typeof STATS_MODELS)[number];

/** Two minutes between the turns of a conversation; an answer comes a second after its question. */
export const TURN_GAP_MS = 120_000;
export const ANSWER_DELAY_MS = 1000;

export interface HistoryOptions {
  users: number;
  conversations: number;
  turnsPerConversation: number;
  /** The history ends now and reaches this many days back. */
  days: number;
}

export interface HistoryPlan extends HistoryOptions {
  now: number;
  since: number;
  /** Per conversation: owner (index of the user), model (index in STATS_MODELS), start, id. */
  convUser: Uint32Array;
  convModel: Uint8Array;
  convStart: Float64Array;
  convIds: string[];
  /** Per turn (conversation × turnsPerConversation + k). */
  questionTokens: Uint16Array;
  answerTokens: Uint16Array;
  /** Per user: credits spent and answer tokens over the whole history. */
  spent: Float64Array;
  tokens: Float64Array;
  rand: () => number;
}

function pickModel(r: number): number {
  let i = 0;
  for (; i < STATS_MODELS.length - 1; i++) {
    const share = (STATS_MODELS[i] as StatsModel).share;
    if (r < share) break;
    r -= share;
  }
  return i;
}

export function planHistory(o: HistoryOptions): HistoryPlan {
  const rand = mulberry32(20_250_901);
  const now = Date.now();
  const since = now - o.days * 86_400_000;
  const span = now - since - turnOffset(o.turnsPerConversation - 1) - ANSWER_DELAY_MS - 60_000;
  const plan: HistoryPlan = {
    ...o,
    now,
    since,
    convUser: new Uint32Array(o.conversations),
    convModel: new Uint8Array(o.conversations),
    convStart: new Float64Array(o.conversations),
    convIds: [],
    questionTokens: new Uint16Array(o.conversations * o.turnsPerConversation),
    answerTokens: new Uint16Array(o.conversations * o.turnsPerConversation),
    spent: new Float64Array(o.users),
    tokens: new Float64Array(o.users),
    rand,
  };
  for (let c = 0; c < o.conversations; c++) {
    const u = c % o.users;
    const model = pickModel(rand());
    plan.convUser[c] = u;
    plan.convModel[c] = model;
    plan.convStart[c] = since + rand() * span;
    plan.convIds.push(crypto.randomUUID());
    for (let k = 0; k < o.turnsPerConversation; k++) {
      const t = c * o.turnsPerConversation + k;
      const answer = 80 + Math.floor(rand() * 1200);
      plan.questionTokens[t] = 20 + Math.floor(rand() * 180);
      plan.answerTokens[t] = answer;
      plan.spent[u] = (plan.spent[u] as number) + (STATS_MODELS[model] as StatsModel).cost;
      plan.tokens[u] = (plan.tokens[u] as number) + answer;
    }
  }
  return plan;
}

function turnOffset(k: number): number {
  return k * TURN_GAP_MS;
}

/** When turn `t` was asked. */
export function turnAt(p: HistoryPlan, t: number): number {
  return (p.convStart[Math.floor(t / p.turnsPerConversation)] as number) + turnOffset(t % p.turnsPerConversation);
}

/** Every turn, oldest first. */
export function turnsInTimeOrder(p: HistoryPlan): Uint32Array {
  const at = Float64Array.from({ length: p.conversations * p.turnsPerConversation }, (_, t) => turnAt(p, t));
  return Uint32Array.from(at.keys()).sort((a, b) => (at[a] as number) - (at[b] as number));
}
