const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const MATH_FENCE = /^ {0,3}\$\$/;

/**
 * Splits markdown into top-level blocks at blank lines, never inside a fenced code or
 * `$$` math block, and never before an indented line (a list item's continuation).
 * While an answer streams, only its last block changes, so every earlier block can keep
 * its rendered output (KaTeX and highlighting are the costly part) instead of being
 * rendered again on every frame. Joining the blocks with blank lines gives the text back.
 */
export function splitMarkdownBlocks(text: string): string[] {
  const lines = text.split('\n');
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  let inMath = false;

  lines.forEach((line, index) => {
    if (fence !== null) {
      if (line.trimStart().startsWith(fence)) fence = null;
      current.push(line);
      return;
    }
    if (inMath) {
      if (MATH_FENCE.test(line) || line.trimEnd().endsWith('$$')) inMath = false;
      current.push(line);
      return;
    }
    const opening = FENCE.exec(line);
    if (opening) fence = opening[1] ?? null;
    else if (MATH_FENCE.test(line) && !/\$\$.*\$\$/.test(line.trim())) inMath = true;

    const next = lines[index + 1];
    const boundary =
      line.trim() === '' && current.length > 0 && next !== undefined && next.trim() !== '' && !/^\s/.test(next);
    if (boundary) {
      blocks.push(current.join('\n').replace(/\n+$/, ''));
      current = [];
    } else if (line.trim() !== '' || current.length > 0) {
      current.push(line);
    }
  });
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}
