import type { StorageUsage } from '@aiplatform/contracts';

/** How full the site's upload storage is, as the storage tab shows it. */
export interface StorageUsageView {
  /** Share of the budget in use, 0–100 (whole, rounded down so 100 means reached); null without a budget. */
  percent: number | null;
  /** `full` once the budget is reached (uploads refused), `alert` from the alert share on. */
  level: 'normal' | 'alert' | 'full';
}

export function storageUsageView(usage: StorageUsage): StorageUsageView {
  if (usage.budget_bytes <= 0) return { percent: null, level: 'normal' };
  const exact = (usage.used_bytes * 100) / usage.budget_bytes;
  const percent = Math.min(100, Math.floor(exact));
  if (usage.used_bytes >= usage.budget_bytes) return { percent, level: 'full' };
  const alerting = usage.alert_percent > 0 && exact >= usage.alert_percent;
  return { percent, level: alerting ? 'alert' : 'normal' };
}
