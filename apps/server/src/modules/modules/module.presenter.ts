import type { AdminModule } from '@aiplatform/contracts';
import type { ModuleRow } from '../../db/types.js';

/** A module row as the administration sees it. */
export function toAdminModule(row: ModuleRow, groupIds: number[]): AdminModule {
  return {
    id: row.id,
    name: row.name,
    display_name: row.display_name,
    description: row.description,
    menu_icon: row.menu_icon,
    module_url: row.module_url,
    open_mode: row.open_mode,
    is_active: row.is_active === 1,
    sort_order: row.sort_order,
    group_ids: groupIds,
    auth_mode: row.auth_mode,
    health_check_url: row.health_check_url,
    health_status: row.health_status,
    health_checked_at: row.health_checked_at,
    health_latency_ms: row.health_latency_ms,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** What the audit log compares before and after a change: the settings, not the timestamps. */
export function moduleSnapshot(m: AdminModule): Record<string, unknown> {
  const { created_at: _created, updated_at: _updated, ...rest } = m;
  return rest;
}
