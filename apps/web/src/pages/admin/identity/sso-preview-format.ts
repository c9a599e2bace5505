import type { SsoPreviewOutcome } from '@aiplatform/contracts';

/** A translation key with its values: kept apart from i18n so the wording rules are testable. */
export interface Phrase {
  key: string;
  values?: Record<string, string | number>;
}

/**
 * The outcome of a test sign-in in words: which account it would sign in as (or why it would
 * be refused), then the group and role the mappings would give.
 */
export function outcomePhrases(outcome: SsoPreviewOutcome): Phrase[] {
  const id = outcome.user_id ?? 0;
  const group = outcome.group_name ?? (outcome.group_id === null ? '' : `#${outcome.group_id}`);
  const phrases: Phrase[] = [];
  switch (outcome.account) {
    case 'existing':
      phrases.push({ key: 'admin:identity.preview.outcome.existing', values: { id } });
      break;
    case 'link':
      phrases.push({ key: 'admin:identity.preview.outcome.link', values: { id } });
      break;
    case 'create':
      phrases.push(
        outcome.group_id === null
          ? { key: 'admin:identity.preview.outcome.create' }
          : { key: 'admin:identity.preview.outcome.createInGroup', values: { group } },
      );
      break;
    case 'conflict':
      phrases.push({ key: 'admin:identity.preview.outcome.conflict' });
      break;
    case 'not_provisioned':
      phrases.push({ key: 'admin:identity.preview.outcome.notProvisioned' });
      break;
    case 'not_allowed':
      phrases.push({ key: 'admin:identity.preview.outcome.notAllowed' });
      break;
    case 'disabled':
      phrases.push({ key: 'admin:identity.preview.outcome.disabled', values: { id } });
      break;
  }
  const refused = isRefused(outcome);
  // A new account's group is already in its sentence; a refused sign-in moves nobody.
  if (!refused && outcome.account !== 'create' && outcome.group_id !== null) {
    phrases.push({ key: 'admin:identity.preview.outcome.group', values: { group } });
  }
  if (!refused && outcome.group_id === null) phrases.push({ key: 'admin:identity.preview.outcome.noGroup' });
  if (!refused && outcome.role !== null) phrases.push({ key: `admin:identity.preview.outcome.role.${outcome.role}` });
  return phrases;
}

/** True when the sign-in would be refused (shown as a warning). */
export function isRefused(outcome: SsoPreviewOutcome): boolean {
  return ['conflict', 'not_provisioned', 'not_allowed', 'disabled'].includes(outcome.account);
}

/** The claims as table rows, sorted by name; values other than text shown as JSON. */
export function claimRows(claims: Record<string, unknown>): { name: string; value: string }[] {
  return Object.keys(claims)
    .sort()
    .map((name) => {
      const value = claims[name];
      return { name, value: typeof value === 'string' ? value : JSON.stringify(value) };
    });
}

/** The test sign-in's code and provider from the identity page's address fragment, or null. */
export function previewFromFragment(hash: string): { code: string; providerId: number } | null {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const code = params.get('preview');
  const providerId = Number(params.get('provider'));
  if (!code || !Number.isInteger(providerId) || providerId <= 0) return null;
  return { code, providerId };
}
