/** Opening of a fenced code block; its closing must use the same characters. */
const CODE_FENCE = /^(?:[ \t]*>)*[ \t]*(`{3,}|~{3,})/;
/** `$$` opening a multi-line formula (what follows on the line is remark-math's meta). */
const MATH_OPEN = /^(?:[ \t]*>)*[ \t]*\$\$/;
/** A line that is only `$$`, closing a multi-line formula. */
const MATH_CLOSE = /^(?:[ \t]*>)*[ \t]*\$\$[ \t]*$/;
/** A whole line `$$…$$`, after any indentation or quote markers (kept as `prefix`). */
const ONE_LINE = /^(?<prefix>(?:[ \t]*>)*[ \t]*)\$\$(?<tex>[^$]*[^$\s][^$]*)\$\$[ \t]*$/;

/**
 * Models usually write a display formula as `$$…$$` alone on one line, but remark-math
 * reads one-line `$$…$$` as inline math (only `$$` on a line of its own opens display
 * math). Each such line is moved onto three lines, keeping its indentation and quote
 * markers so it stays in its list item or quote. Code fences and multi-line formulas
 * are copied as they are, and `$$…$$` within a sentence stays inline.
 */
export function expandDisplayMath(text: string): string {
  if (!text.includes('$$')) return text;
  let fence: string | null = null;
  let inMath = false;
  return text
    .split('\n')
    .map((line) => {
      if (fence !== null) {
        if (line.replace(/^(?:[ \t]*>)*[ \t]*/, '').startsWith(fence)) fence = null;
        return line;
      }
      if (inMath) {
        if (MATH_CLOSE.test(line)) inMath = false;
        return line;
      }
      const code = CODE_FENCE.exec(line);
      if (code) {
        fence = code[1] ?? null;
        return line;
      }
      const one = ONE_LINE.exec(line);
      if (one?.groups) {
        const { prefix = '', tex = '' } = one.groups;
        return `${prefix}$$\n${prefix}${tex.trim()}\n${prefix}$$`;
      }
      if (MATH_OPEN.test(line)) inMath = true;
      return line;
    })
    .join('\n');
}
