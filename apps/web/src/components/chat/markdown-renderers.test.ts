import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import rehypeKatex from 'rehype-katex';
import remarkMath from 'remark-math';
import { describe, expect, it } from 'vitest';
import { plugin as highlight } from './highlight-plugin';
import type { RehypePlugin } from './markdown-plugins';
import { plugin as math } from './math-plugin';

/** What the markdown renderer does with a plugin on each render: call its attacher. */
const attach = (plugin: RehypePlugin): unknown => (plugin as () => unknown).call(undefined);

const render = (text: string, plugins: RehypePlugin[]): string =>
  renderToStaticMarkup(createElement(Markdown, { remarkPlugins: [remarkMath], rehypePlugins: plugins }, text));

describe('the on-demand markdown renderers', () => {
  it('are built once: attaching them again, as every render does, reuses the same transformer', () => {
    expect(attach(highlight)).toBe(attach(highlight));
    expect(attach(math)).toBe(attach(math));
  });

  it('still highlight a fenced block that names its language, and only that one', () => {
    const html = render('```ts\nconst a = 1;\n```\n\n```\nconst b = 2;\n```', [highlight]);
    expect(html).toContain('<code class="hljs language-ts"><span class="hljs-keyword">const</span>');
    expect(html).toContain('<code>const b = 2;\n</code>');
    // Rendered a second time with the same plugin: the same result.
    expect(render('```ts\nconst a = 1;\n```', [highlight])).toBe(render('```ts\nconst a = 1;\n```', [highlight]));
  });

  it('typeset exactly as rehype-katex does on its own, inline, display, fenced and bad TeX alike', () => {
    const text = [
      'Inline $E = mc^2$ twice $E = mc^2$ and $\\frac{1$.',
      '',
      '$$',
      'a^2 + b^2 = c^2',
      '$$',
      '',
      '```math',
      '\\sum_{i=1}^n i',
      '```',
    ].join('\n');
    const plain: RehypePlugin = [rehypeKatex, { strict: 'ignore', trust: false }];
    expect(render(text, [math])).toBe(render(text, [plain]));
    // And again, now from the cache.
    expect(render(text, [math])).toBe(render(text, [plain]));
  });

  it('still typeset formulas, and show bad TeX as its source instead of throwing', () => {
    expect(render('$E = mc^2$', [math])).toContain('class="katex"');
    const bad = render('$\\frac{1$', [math]);
    expect(bad).toContain('katex-error');
    expect(bad).toContain('\\frac{1');
  });
});
