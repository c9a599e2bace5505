/** Where the desktop side menu remembers being expanded (labels shown) between visits. */
export const NAV_EXPANDED_KEY = 'aiplatform-nav-expanded';

/** Whether the side menu was left expanded; narrow (icons only) unless it was. */
export function readNavExpanded(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): boolean {
  try {
    return storage?.getItem(NAV_EXPANDED_KEY) === '1';
  } catch {
    // Storage can be switched off; the menu then starts narrow each time.
    return false;
  }
}

export function writeNavExpanded(
  expanded: boolean,
  storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined = globalThis.localStorage,
): void {
  try {
    if (expanded) storage?.setItem(NAV_EXPANDED_KEY, '1');
    else storage?.removeItem(NAV_EXPANDED_KEY);
  } catch {
    // Not remembered, still applied for this visit.
  }
}
