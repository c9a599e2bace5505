import { describe, expect, it } from 'vitest';
import enUS from '../../i18n/locales/en-US/dashboard.json';
import zhCN from '../../i18n/locales/zh-CN/dashboard.json';
import { realtimeView } from './realtime-view';

const keysOf = (view: ReturnType<typeof realtimeView>) => [
  view.title,
  view.popularTitle,
  view.popularEmpty,
  ...view.figures.map((f) => f.label),
];

describe('realtimeView', () => {
  it('shows the site all six figures under the platform title', () => {
    const view = realtimeView('site');
    expect(view.title).toBe('dashboard:realtime.title');
    expect(view.figures.map((f) => f.key)).toEqual([
      'online_users',
      'today_active_users',
      'today_messages',
      'today_conversations',
      'today_tokens',
      'total_users',
    ]);
  });

  it('names a group’s figures as the group’s', () => {
    const view = realtimeView('group');
    expect(view.title).toBe('dashboard:realtime.groupTitle');
    expect(view.figures.find((f) => f.key === 'total_users')?.label).toBe('dashboard:realtime.groupTotalUsers');
  });

  it('shows one user only the figures of their own chats', () => {
    const view = realtimeView('user');
    expect(view.title).toBe('dashboard:realtime.userTitle');
    expect(view.figures.map((f) => f.key)).toEqual(['today_messages', 'today_conversations', 'today_tokens']);
  });

  it('has every label in both languages', () => {
    for (const scope of ['site', 'group', 'user'] as const) {
      for (const key of keysOf(realtimeView(scope))) {
        const name = key.replace('dashboard:realtime.', '') as keyof typeof enUS.realtime;
        expect(enUS.realtime[name], key).toBeTruthy();
        expect(zhCN.realtime[name], key).toBeTruthy();
      }
    }
  });
});
