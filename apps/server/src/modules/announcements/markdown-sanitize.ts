/*
 * Announcements are markdown, rendered without raw HTML by the application. The HTML
 * inside the text is still cleaned on save, so that no other reader of the stored text
 * (a client that renders HTML, an export) meets anything active:
 *
 * - elements that carry code or foreign content are removed with what they contain;
 * - other tags are kept only from a short list of formatting elements, rebuilt without
 *   attributes, except a link's `href` when it is an http(s) or mailto address;
 * - any other `<` that could open a tag is written as `&lt;` (markdown shows it as `<`);
 * - markdown link and image destinations with another scheme become `#`.
 *
 * The steps repeat until the text no longer changes, so removing one piece cannot join
 * the pieces around it into a new tag. Text outside tags is left exactly as written:
 * running the markdown through an HTML sanitiser would escape `>` and break quotes.
 */

const ALLOWED_TAGS = new Set([
  ...['p', 'br', 'hr', 'div', 'span', 'blockquote', 'pre', 'code', 'kbd'],
  ...['b', 'strong', 'i', 'em', 'u', 's', 'del', 'ins', 'mark', 'small', 'sub', 'sup'],
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'a'],
  ...['table', 'thead', 'tbody', 'tr', 'th', 'td'],
]);
const VOID_TAGS = new Set(['br', 'hr']);

/** Elements removed together with their content. */
const CONTAINERS = [
  ...['script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'template'],
  ...['textarea', 'select', 'noscript', 'noembed', 'noframes', 'xmp', 'plaintext', 'title', 'svg', 'math'],
];
const CONTAINER = new RegExp(
  `<(${CONTAINERS.join('|')})\\b[^>]*>[\\s\\S]*?(?:<\\/\\1\\s*>|$)|<(?:${CONTAINERS.join('|')})\\b[^>]*\\/>`,
  'gi',
);
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;

/** An HTML tag as markdown recognises one (attribute values may hold `>`). */
const ATTRIBUTE = /\s+([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/y;
const AUTOLINK = /<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*)>/y;
const EMAIL_AUTOLINK =
  /<[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*>/y;

/** Markdown destinations: inline links and images, and reference definitions. */
const INLINE_DESTINATION = /(\]\(\s*)(<[^>\n]*>|[^\s)]+)/g;
const REFERENCE_DESTINATION = /^( {0,3}\[[^\]\n]+\]:[ \t]*\n?[ \t]*)(<[^>\n]*>|\S+)/gm;

const MAX_ROUNDS = 10;

export function sanitizeMarkdown(text: string): string {
  let current = text;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const next = cleanOnce(current);
    if (next === current) return next;
    current = next;
  }
  // Still changing: nothing that could open a tag is left at all.
  return current.replace(/</g, '&lt;');
}

function cleanOnce(text: string): string {
  const withoutActive = text.replace(COMMENT, '').replace(CONTAINER, '');
  const withSafeLinks = withoutActive
    .replace(INLINE_DESTINATION, (_m, head: string, dest: string) => head + safeDestination(dest))
    .replace(REFERENCE_DESTINATION, (_m, head: string, dest: string) => head + safeDestination(dest));
  return cleanTags(withSafeLinks);
}

function safeDestination(dest: string): string {
  const url = dest.startsWith('<') ? dest.slice(1, -1) : dest;
  return isSafeUrl(url) ? dest : '#';
}

/** Walks the text once: rebuilds allowed tags, drops other tags, escapes a stray `<` that could open one. */
function cleanTags(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    if (lt === -1) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, lt);
    const [replacement, length] = atAngle(text, lt);
    out += replacement;
    i = lt + length;
  }
  return out;
}

/** What to write for the `<` at `pos`, and how many characters of the input that consumes. */
function atAngle(text: string, pos: number): [string, number] {
  for (const autolink of [AUTOLINK, EMAIL_AUTOLINK]) {
    autolink.lastIndex = pos;
    const m = autolink.exec(text);
    if (m && (autolink === EMAIL_AUTOLINK || isSafeUrl(m[1] ?? ''))) return [m[0], m[0].length];
  }
  TAG.lastIndex = pos;
  const tag = TAG.exec(text);
  if (tag) return [rebuildTag(tag[1] === '/', (tag[2] ?? '').toLowerCase(), tag[3] ?? ''), tag[0].length];
  // Text such as `a < b` stays; `<` before a letter, `/`, `!` or `?` could start markup.
  return [/[a-zA-Z/!?]/.test(text[pos + 1] ?? '') ? '&lt;' : '<', 1];
}

function rebuildTag(closing: boolean, name: string, attributes: string): string {
  if (!ALLOWED_TAGS.has(name)) return '';
  if (closing) return VOID_TAGS.has(name) ? '' : `</${name}>`;
  if (name !== 'a') return `<${name}>`;
  const href = attributeValue(attributes, 'href');
  return href !== undefined && isSafeUrl(href) ? `<a href="${escapeAttribute(decodeEntities(href))}">` : '<a>';
}

function attributeValue(attributes: string, wanted: string): string | undefined {
  for (const m of attributes.matchAll(ATTRIBUTE)) {
    if (m[1]?.toLowerCase() === wanted) return m[2] ?? m[3] ?? m[4] ?? '';
  }
  return undefined;
}

/**
 * http(s), mailto, or an address without a scheme (a path or fragment). Entities,
 * backslash escapes, whitespace and control characters are resolved first, as a
 * browser or markdown renderer would, so `jav&#x61;script:` is seen for what it is.
 */
export function isSafeUrl(raw: string): boolean {
  const url = decodeEntities(raw)
    .replace(/\\(.)/g, '$1')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0020\u007f-\u009f]/g, '')
    .toLowerCase();
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(url);
  if (!scheme) return !url.includes(':') || /^[/#?.]/.test(url);
  return ['http', 'https', 'mailto'].includes(scheme[1] ?? '');
}

const NAMED: Record<string, string> = {
  colon: ':',
  tab: '\t',
  newline: '\n',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  sol: '/',
  lpar: '(',
  rpar: ')',
  period: '.',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (m, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return NAMED[body.toLowerCase()] ?? m;
  });
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
