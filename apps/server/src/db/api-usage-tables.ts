import type { Generated } from 'kysely';

/** One request through a personal API key (`/v1`): its reservation, state and lease. */
export interface ApiTurnsTable {
  id: string;
  user_id: number;
  api_key_id: number;
  /** The user's group when the request began (its statistics row); null for none. */
  group_id: number | null;
  model_name: string;
  kind: Generated<'chat' | 'embedding'>;
  /** The statistics day (in the site's zone) the request began on: what key limits count. */
  day: string;
  cost: Generated<number>;
  status: 'streaming' | 'complete' | 'stopped' | 'error' | 'refunded';
  /** 1 once the upstream produced any output (text or a tool call): then it is charged. */
  produced: Generated<number>;
  owner: string | null;
  lease_until: string | null;
  prompt_tokens: Generated<number>;
  completion_tokens: Generated<number>;
  tokens: Generated<number>;
  created_at: string;
  finished_at: Generated<string | null>;
}

/** The API's share of the daily usage, per key (the usage totals count it too). */
export interface UsageDailyApiTable {
  day: string;
  user_id: number;
  api_key_id: number;
  model_name: string;
  group_id: number;
  requests: number;
  tokens: number;
  credits: number;
}

/** These tables, as `Database` in types.ts gathers them. */
export interface ApiUsageTables {
  api_turns: ApiTurnsTable;
  usage_daily_api: UsageDailyApiTable;
}
