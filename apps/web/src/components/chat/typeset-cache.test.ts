import type { Element, Root } from 'hast';
import { describe, expect, it } from 'vitest';
import { cachedTypesetting } from './typeset-cache';

const math = (tex: string, kind = 'math-inline'): Element => ({
  type: 'element',
  tagName: 'code',
  properties: { className: ['language-math', kind] },
  children: [{ type: 'text', value: tex }],
});

const paragraph = (...children: Element['children']): Root => ({
  type: 'root',
  children: [{ type: 'element', tagName: 'p', properties: {}, children }],
});

/** A stand-in typesetter: every math element becomes a span holding its TeX upper-cased. */
function fakeTypesetter() {
  const typeset: string[] = [];
  const run = (tree: Root) => {
    tree.children = tree.children.map((node) => {
      const tex = node.type === 'element' && node.children[0]?.type === 'text' ? node.children[0].value : '';
      typeset.push(tex);
      return {
        type: 'element',
        tagName: 'span',
        properties: { className: ['katex'] },
        children: [{ type: 'text', value: tex.toUpperCase() }],
      };
    });
  };
  return { run, typeset };
}

const html = (tree: Root): string => JSON.stringify(tree);

describe('cachedTypesetting', () => {
  it('typesets a formula once however often the text around it is rendered again', () => {
    const fake = fakeTypesetter();
    const typeset = cachedTypesetting(fake.run);
    const first = paragraph({ type: 'text', value: 'The formula ' }, math('e = mc^2'));
    const second = paragraph({ type: 'text', value: 'The formula ' }, math('e = mc^2'), {
      type: 'text',
      value: ' and',
    });
    typeset(first, undefined);
    typeset(second, undefined);
    expect(fake.typeset).toEqual(['e = mc^2']);
    expect(html(second)).toContain('"value":"E = MC^2"');
    expect(html(second)).toContain('"value":" and"');
    expect(html(second)).not.toContain('language-math');
  });

  it('keeps the order and place of several formulas, and tells inline from display math', () => {
    const fake = fakeTypesetter();
    const typeset = cachedTypesetting(fake.run);
    const tree = paragraph(math('a'), { type: 'text', value: ' + ' }, math('a', 'math-display'), math('b'));
    typeset(tree, undefined);
    expect(fake.typeset).toEqual(['a', 'a', 'b']);
    const values = JSON.stringify(tree).match(/"value":"[^"]*"/g);
    expect(values).toEqual(['"value":"A"', '"value":" + "', '"value":"A"', '"value":"B"']);
  });

  it('hands out copies: changing one rendered tree leaves the next one as typeset', () => {
    const fake = fakeTypesetter();
    const typeset = cachedTypesetting(fake.run);
    const first = paragraph(math('x'));
    typeset(first, undefined);
    const span = (first.children[0] as Element).children[0] as Element;
    span.properties.title = 'changed';
    const second = paragraph(math('x'));
    typeset(second, undefined);
    expect(html(second)).not.toContain('changed');
  });
});
