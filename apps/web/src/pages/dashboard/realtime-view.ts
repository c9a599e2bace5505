import type { RealtimeScope, RealtimeStats } from '@aiplatform/contracts';

type FigureKey = keyof Pick<
  RealtimeStats,
  'online_users' | 'today_active_users' | 'today_messages' | 'today_conversations' | 'today_tokens' | 'total_users'
>;

export interface RealtimeFigure {
  key: FigureKey;
  label: string;
  testId: string;
}

export interface RealtimeView {
  title: string;
  figures: RealtimeFigure[];
  popularTitle: string;
  popularEmpty: string;
}

const figure = (key: FigureKey, label: string, testId: string): RealtimeFigure => ({
  key,
  label: `dashboard:realtime.${label}`,
  testId: `realtime-${testId}`,
});

const MESSAGES = figure('today_messages', 'todayMessages', 'today-messages');
const CONVERSATIONS = figure('today_conversations', 'todayConversations', 'today-conversations');
const TOKENS = figure('today_tokens', 'todayTokens', 'today-tokens');
const ACTIVE = figure('today_active_users', 'activeUsers', 'active-users');

/**
 * What the live card shows for the scope the server answered in: the site's and a group's
 * figures (named as a group's), or, for one user, only the figures about their own chats
 * (online and user counts say nothing about oneself).
 */
export function realtimeView(scope: RealtimeScope): RealtimeView {
  const key = (name: string) => `dashboard:realtime.${name}`;
  if (scope === 'user') {
    return {
      title: key('userTitle'),
      figures: [MESSAGES, CONVERSATIONS, TOKENS],
      popularTitle: key('userPopularModels'),
      popularEmpty: key('userPopularEmpty'),
    };
  }
  const group = scope === 'group';
  return {
    title: key(group ? 'groupTitle' : 'title'),
    figures: [
      figure('online_users', group ? 'groupOnline' : 'online', 'online'),
      ACTIVE,
      MESSAGES,
      CONVERSATIONS,
      TOKENS,
      figure('total_users', group ? 'groupTotalUsers' : 'totalUsers', 'total-users'),
    ],
    popularTitle: key('popularModels'),
    popularEmpty: key(group ? 'groupPopularEmpty' : 'popularEmpty'),
  };
}
