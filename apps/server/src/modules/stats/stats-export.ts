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
] as const;
type ExportRow = Record<(typeof COLUMNS)[number], string | number>;

/**
 * Usage for charging back to departments: one row per day, user and model (group
 * named), read one day at a time so memory stays flat over long ranges.
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
        };
      }
    }
  }
  return csvStream<ExportRow>(COLUMNS, rows());
}
