/**
 * Backgrounds of a module's letter icon: dark enough for white text at AA contrast on
 * both themes, and different enough for neighbouring modules to be told apart.
 */
export const LETTER_COLOURS = ['#1d4ed8', '#047857', '#b45309', '#7e22ce', '#be123c', '#0e7490', '#4d7c0f', '#9d174d'];

/** The first character of the module's name, upper-cased (a whole character, not half of a pair). */
export function moduleLetter(displayName: string): string {
  const first = Array.from(displayName.trim())[0] ?? '?';
  return first.toLocaleUpperCase();
}

/** The same module always gets the same colour; different names mostly get different ones. */
export function moduleLetterColour(key: string): string {
  let hash = 0;
  for (const ch of key) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return LETTER_COLOURS[hash % LETTER_COLOURS.length] ?? LETTER_COLOURS[0]!;
}
