import type { AuditListQuery } from '@aiplatform/contracts';

export const INITIAL_AUDIT_QUERY: AuditListQuery = { page: 1, limit: 20 };

/** Kinds of objects admin writes are recorded against (credit operations are recorded on their user). */
export const AUDIT_TARGET_TYPES = ['user', 'group'] as const;

/** The filters alone, for the CSV export. */
export function auditExportFilters(query: AuditListQuery): Record<string, unknown> {
  const { page: _page, limit: _limit, ...filters } = query;
  return filters;
}
