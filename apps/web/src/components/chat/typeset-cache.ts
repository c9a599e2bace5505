import type { Element, ElementContent, Root, RootContent } from 'hast';

/** A rehype transformer as rehype-katex returns it (the file is only passed through). */
export type Typesetter<File> = (tree: Root, file: File) => void;

type Parent = Root | Element;

const classesOf = (node: Element): string[] => {
  const value = node.properties.className;
  return Array.isArray(value) ? value.map(String) : [];
};

const isMath = (node: Element): boolean =>
  classesOf(node).some((name) => name === 'math-inline' || name === 'math-display' || name === 'language-math');

/** The math element itself, or the `<pre>` around a `language-math` code block (replaced whole). */
function mathScope(node: RootContent): Element | undefined {
  if (node.type !== 'element') return undefined;
  if (isMath(node)) return node;
  if (node.tagName === 'pre') {
    const code = node.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
    if (code && classesOf(code).includes('language-math')) return node;
  }
  return undefined;
}

const textOf = (node: RootContent | Root): string =>
  node.type === 'text' ? node.value : 'children' in node ? node.children.map(textOf).join('') : '';

/** Every outermost math scope with its parent, in document order. */
function findMath(parent: Parent, found: { parent: Parent; scope: Element }[]): void {
  for (const child of parent.children) {
    const scope = mathScope(child);
    if (scope) found.push({ parent, scope });
    else if (child.type === 'element') findMath(child, found);
  }
}

/**
 * Typesets each formula once and reuses the result while it stays the same. A streamed
 * answer's last paragraph is rendered again on every frame, and so was every formula in
 * it; KaTeX's layout and the parsing of its HTML were a good part of each frame. Each
 * formula is handed to the typesetter alone (a root holding just it), so its output, errors
 * included, is exactly what it would have been in place; copies go into the tree.
 */
export function cachedTypesetting<File>(typeset: Typesetter<File>, limit = 500): Typesetter<File> {
  const cache = new Map<string, ElementContent[]>();
  return (tree, file) => {
    const found: { parent: Parent; scope: Element }[] = [];
    findMath(tree, found);
    for (const { parent, scope } of found) {
      const key = `${scope.tagName}\u0000${classesOf(scope).join(' ')}\u0000${textOf(scope)}`;
      let result = cache.get(key);
      if (!result) {
        const alone: Root = { type: 'root', children: [structuredClone(scope)] };
        typeset(alone, file);
        result = alone.children as ElementContent[];
        // Oldest first out: a Map keeps insertion order.
        if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
        cache.set(key, result);
      }
      const index = parent.children.indexOf(scope);
      (parent.children as RootContent[]).splice(index, 1, ...structuredClone(result));
    }
  };
}
