/** Length of a title taken from a first question, in characters (not UTF-16 units). */
export const AUTO_TITLE_CHARS = 30;

/*
 * Markdown that would show as noise in a sidebar title, each replaced by its readable part.
 * Order matters: fenced code before inline code, images before links.
 */
const MARKDOWN_NOISE: [RegExp, string][] = [
  [/```[^\n]*\n?([\s\S]*?)(```|$)/g, '$1'], // fenced code: keep the code, drop the fence and language
  [/!\[([^\]]*)\]\([^)]*\)/g, '$1'], // image: its alt text
  [/\[([^\]]+)\]\([^)]*\)/g, '$1'], // link: its text
  [/<[^>]+>/g, ' '], // HTML tags
  [/^\s{0,3}(#{1,6}|>+|[-*+]|\d+[.)])\s+/gm, ''], // heading, quote and list markers
  [/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/gm, ''], // table separator rows
  [/\|/g, ' '], // table cell borders
  [/\${1,2}/g, ''], // math delimiters
  [/(\*\*|~~|`|\*)/g, ''], // bold, strike-through, inline code and emphasis marks
  [/(?<!\w)_{1,2}(?=\S)|(?<=\S)_{1,2}(?!\w)/g, ''], // underscore emphasis, not snake_case
];

/** Markdown as the reader sees it, on one line: marks stripped, whitespace runs made one space. */
export function plainText(content: string): string {
  let text = content;
  for (const [pattern, replacement] of MARKDOWN_NOISE) text = text.replace(pattern, replacement);
  return text.replace(/\s+/g, ' ').trim();
}

/** A conversation title from its first question: plain text, markdown stripped, 30 characters. */
export function titleFromQuestion(content: string): string {
  return Array.from(plainText(content)).slice(0, AUTO_TITLE_CHARS).join('');
}
