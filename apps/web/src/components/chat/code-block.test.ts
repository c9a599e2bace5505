import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { MarkdownContent } from './MarkdownContent';

// The copy button's toasts need the browser's document; nothing is copied here.
vi.mock('../../api/notify', () => ({ toast: {} }));

/** Rendered before the highlighter and KaTeX have loaded, as an answer first appears. */
const render = (text: string, streaming = false): string =>
  renderToStaticMarkup(createElement(MarkdownContent, { text, streaming }));

const copyButtons = (html: string): number => html.match(/data-testid="code-copy"/g)?.length ?? 0;

describe('code blocks in an answer', () => {
  const answer = ['Code:', '', '```ts', 'const a = 1;', '```', '', 'The block:', '', '$$a^2 + b^2 = c^2$$', ''].join(
    '\n',
  );

  it('get one copy button each; a display formula waiting for KaTeX gets none', () => {
    for (const streaming of [false, true]) {
      const html = render(answer, streaming);
      expect(copyButtons(html)).toBe(1);
      // The formula's TeX stays readable meanwhile.
      expect(html).toContain('<pre><code class="language-math math-display">a^2 + b^2 = c^2</code></pre>');
    }
  });

  it('keeps the language label and copy button of ordinary code', () => {
    const html = render('```py\nprint(1)\n```');
    expect(html).toContain('<span class="chat-code-language">py</span>');
    expect(copyButtons(html)).toBe(1);
  });
});
