import { csvStream } from '../../lib/http/csv-stream.js';
import { daysBetween } from './stats-calendar.js';
import type { UsageRange, UsageStatsRepo } from './usage-stats.repo.js';

const COLUMNS = [
  'date',
  'group_id',
  'group_name',
  'user_id',
  'username',
  'email',
  'model',
  'messages',
  'tokens',
  'credits',
  'conversations',
  'ui_credits',
  'api_credits',
  'api_requests',
  'api_tokens',
] as const;
type ExportRow = Record<(typeof COLUMNS)[number], string | number>;

/**
 * Usage for charging back to departments: one row per day, user and model (group
 * named), read one day at a time so memory stays flat over long ranges. The credits are
 * split by where they went: the site's chat (`ui_credits`) or personal API keys
 * (`api_credits`, with the API's requests and tokens).
 */
export function usageCsv(repo: UsageStatsRepo, range: UsageRange) {
  async function* rows(): AsyncGenerator<ExportRow> {
    for (const day of daysBetween(range.from, range.to)) {
      for (const r of await repo.exportDay(day, range.groupId)) {
        yield {
          date: r.day,
          group_id: r.group_id > 0 ? r.group_id : '',
          group_name: r.group_name ?? '',
          user_id: r.user_id,
          username: r.username,
          email: r.email,
          model: r.model_name,
          messages: Number(r.messages),
          tokens: Number(r.tokens),
          credits: Number(r.credits),
          conversations: Number(r.conversations),
          // Where the credits went: the site's chat, or personal API keys (`/v1`).
          ui_credits: Number(r.credits) - Number(r.api_credits ?? 0),
          api_credits: Number(r.api_credits ?? 0),
          api_requests: Number(r.api_requests ?? 0),
          api_tokens: Number(r.api_tokens ?? 0),
        };
      }
    }
  }
  return csvStream<ExportRow>(COLUMNS, rows());
}
