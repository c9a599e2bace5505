import { Filter } from 'ldapts';

/**
 * Fills an administrator's filter template (`(|(uid={login})(mail={login}))`,
 * `(member={dn})`) with values that came from outside: each value is escaped per RFC 4515
 * first, so `*`, `(`, `)`, `\` and NUL in a login are matched literally and can never widen
 * the search or add terms to it. A function replacer keeps `$&`-style patterns in a value
 * from being read as replacement syntax.
 */
export function fillFilter(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => {
    const value = values[name];
    return value === undefined ? placeholder : Filter.escape(value);
  });
}

/**
 * The administrator's user filter with `{login}` as a presence wildcard: the people the
 * filter lets sign in at all. Used only by the connection test, never with a person's input.
 */
export function everyoneFilter(template: string): string {
  return template.replace(/\{login\}/g, '*');
}
