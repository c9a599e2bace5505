import type { KnowledgeBaseScope, Role } from '@aiplatform/contracts';

/**
 * The scopes a person may create: a group's knowledge base is curated by its group
 * administrators and the super administrators, and needs a group to belong to.
 */
export function creatableScopes(user: { role: Role; group_id: number | null } | null): KnowledgeBaseScope[] {
  if (!user) return ['personal'];
  const curator = user.role === 'super_admin' || (user.role === 'admin' && user.group_id !== null);
  return curator ? ['personal', 'group'] : ['personal'];
}

export const SCOPE_LABELS: Record<KnowledgeBaseScope, string> = {
  personal: 'chat:knowledge.scopes.personal',
  group: 'chat:knowledge.scopes.group',
};
