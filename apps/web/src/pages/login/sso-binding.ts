import { newSsoBinding } from './sso-addresses';

/**
 * The value that ties a single sign-on to the tab that started it. It stays in this tab's
 * session storage (not shared with other tabs or sites); the server keeps only its hash and
 * gives the session only to the tab that presents it, so a finished sign-in address sent by
 * someone else signs nobody in as them.
 */
const KEY = 'aiplatform.sso-binding';

export function bindThisTab(): string {
  const binding = newSsoBinding();
  sessionStorage.setItem(KEY, binding);
  return binding;
}

/** The tab's value, once: it is spent with the exchange. */
export function takeTabBinding(): string | undefined {
  const binding = sessionStorage.getItem(KEY) ?? undefined;
  sessionStorage.removeItem(KEY);
  return binding;
}
