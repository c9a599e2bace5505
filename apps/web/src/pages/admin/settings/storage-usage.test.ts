import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../../components/common/format';
import { storageUsageView } from './storage-usage';

const usage = (used: number, budget: number, alert = 90) => ({
  used_bytes: used,
  images_bytes: used,
  avatars_bytes: 0,
  budget_bytes: budget,
  alert_percent: alert,
});

describe('the storage tab’s figures', () => {
  it('shows the share of the budget in use, and no share without a budget', () => {
    expect(storageUsageView(usage(250, 1000))).toEqual({ percent: 25, level: 'normal' });
    expect(storageUsageView(usage(5_000, 0))).toEqual({ percent: null, level: 'normal' });
  });

  it('marks the alert share and the budget reached; a share just below 100 is not shown as full', () => {
    expect(storageUsageView(usage(899, 1000))).toEqual({ percent: 89, level: 'normal' });
    expect(storageUsageView(usage(900, 1000))).toEqual({ percent: 90, level: 'alert' });
    expect(storageUsageView(usage(999, 1000))).toEqual({ percent: 99, level: 'alert' });
    expect(storageUsageView(usage(1000, 1000))).toEqual({ percent: 100, level: 'full' });
    expect(storageUsageView(usage(1200, 1000))).toEqual({ percent: 100, level: 'full' });
    // No alert share: only the budget reached is marked.
    expect(storageUsageView(usage(990, 1000, 0))).toEqual({ percent: 99, level: 'normal' });
  });

  it('writes sizes in binary units with one decimal, in the reader’s language', () => {
    expect(formatBytes(0, 'en-US')).toBe('0 B');
    expect(formatBytes(1023, 'en-US')).toBe('1,023 B');
    expect(formatBytes(1536, 'en-US')).toBe('1.5 KB');
    expect(formatBytes(10 * 1024 ** 3, 'en-US')).toBe('10 GB');
    expect(formatBytes(1.25 * 1024 ** 2, 'zh-CN')).toBe('1.3 MB');
  });
});
