/** Cache keys of every server query, in one place so invalidation cannot drift. */
export const queryKeys = {
  me: ['auth', 'me'] as const,
  creditHistory: (page: number, limit: number) => ['auth', 'credit-history', page, limit] as const,
  userModules: ['modules', 'user-modules'] as const,
  chatModels: ['chat', 'models'] as const,
  chatConversations: ['chat', 'conversations'] as const,
  chatCredits: ['chat', 'credits'] as const,
  systemAnnouncement: ['announcement', 'system'] as const,
};
