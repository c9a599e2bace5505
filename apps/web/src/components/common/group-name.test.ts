import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import enUS from '../../i18n/locales/en-US/common.json';
import zhCN from '../../i18n/locales/zh-CN/common.json';
import { groupDisplayName } from './group-name';

const t = ((key: string) => `translated:${key}`) as unknown as TFunction;

describe('groupDisplayName', () => {
  it('shows the default group’s seed name in the viewer’s language', () => {
    expect(groupDisplayName('default', t)).toBe('translated:common:group.default');
    expect(groupDisplayName('default', t, 1)).toBe('translated:common:group.default');
    expect(enUS.group.default).toBe('Default group');
    expect(zhCN.group.default).toBe('默认分组');
  });

  it('keeps an administrator’s name as typed, and another group that happens to be called so', () => {
    expect(groupDisplayName('Sales', t, 1)).toBe('Sales');
    expect(groupDisplayName('default', t, 7)).toBe('default');
    expect(groupDisplayName(null, t)).toBeNull();
  });
});
