/** Cache keys of every server query, in one place so invalidation cannot drift. */
export const queryKeys = {
  me: ['auth', 'me'] as const,
  creditHistory: (page: number, limit: number) => ['auth', 'credit-history', page, limit] as const,
  userModules: ['modules', 'user-modules'] as const,
  chatModels: ['chat', 'models'] as const,
  chatConversations: ['chat', 'conversations'] as const,
  chatCredits: ['chat', 'credits'] as const,
  chatRetention: ['chat', 'retention'] as const,
  /** Prefix of every announcement query: a saved announcement refreshes all of them. */
  announcements: ['announcement'] as const,
  systemAnnouncement: ['announcement', 'system'] as const,
  myGroupAnnouncement: ['announcement', 'my-group'] as const,
  groupAnnouncement: (groupId: number) => ['announcement', 'group', groupId] as const,
  moduleAuthUrl: (name: string) => ['modules', 'auth-url', name] as const,
  /** Prefix of the signed-in user's statistics: a chat turn changes all of them. */
  stats: ['stats'] as const,
  /** Shared by the dashboard's credits centre and the header bell's credit warnings. */
  userCreditsStats: ['stats', 'user-credits'] as const,
  /** Shared by every reader of the platform-wide numbers, so they poll once between them. */
  realtimeStats: ['stats', 'realtime'] as const,
  myUsage: (days: number) => ['stats', 'me', days] as const,
  /** The signed-in user's personal API keys, and the models a key may be limited to. */
  apiKeys: ['api-keys'] as const,
  apiKeyModels: ['api-keys', 'models'] as const,
  /** The caller's caps with their use: a chat turn changes them, as it does the statistics. */
  myCaps: ['stats', 'caps'] as const,
  notifications: ['notifications'] as const,
};

/**
 * Admin data. Prefix keys (`users`, `groups`, `audit`) invalidate every list and detail
 * below them, since one change (a move, a credit) shows in several places.
 */
export const adminKeys = {
  users: ['admin', 'users'] as const,
  userList: (query: object) => ['admin', 'users', 'list', query] as const,
  user: (id: number) => ['admin', 'users', 'detail', id] as const,
  userCredits: (id: number, query: object) => ['admin', 'users', 'credits', id, query] as const,
  groups: ['admin', 'groups'] as const,
  groupList: (query: object) => ['admin', 'groups', 'list', query] as const,
  group: (id: number) => ['admin', 'groups', 'detail', id] as const,
  caps: (type: 'user' | 'group', id: number) => ['admin', 'caps', type, id] as const,
  audit: ['admin', 'audit'] as const,
  auditList: (query: object) => ['admin', 'audit', 'list', query] as const,
  auditVerify: ['admin', 'audit', 'verify'] as const,
  identityProviders: ['admin', 'identity', 'providers'] as const,
  scimTokens: ['admin', 'identity', 'scim-tokens'] as const,
  legalHolds: ['admin', 'legal-holds'] as const,
  retentionRuns: ['admin', 'retention', 'runs'] as const,
  settings: ['admin', 'settings'] as const,
  homepage: ['admin', 'settings', 'homepage'] as const,
  storageUsage: ['admin', 'settings', 'storage-usage'] as const,
  stats: ['admin', 'stats'] as const,
  statsOverview: (query: object) => ['admin', 'stats', 'overview', query] as const,
  apiKeys: ['admin', 'api-keys'] as const,
  apiKeyList: (query: object) => ['admin', 'api-keys', 'list', query] as const,
};
