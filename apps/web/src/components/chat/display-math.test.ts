import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import { describe, expect, it } from 'vitest';
import { expandDisplayMath } from './display-math';
import { plugin as katex } from './math-plugin';

/** The HTML an answer renders to, with the plugins of the chat screen. */
const render = (text: string): string =>
  renderToStaticMarkup(
    createElement(
      Markdown,
      { remarkPlugins: [remarkGfm, remarkMath], rehypePlugins: [katex] },
      expandDisplayMath(text),
    ),
  );

const count = (html: string, needle: string): number => html.split(needle).length - 1;

describe('expandDisplayMath', () => {
  it('moves a line that is only a one-line $$ formula onto lines of its own', () => {
    expect(expandDisplayMath('$$a^2 + b^2 = c^2$$')).toBe('$$\na^2 + b^2 = c^2\n$$');
    expect(expandDisplayMath('Echo: see\n$$ x^2 $$\nand $y$')).toBe('Echo: see\n$$\nx^2\n$$\nand $y$');
  });

  it('keeps indentation and quote markers, so the formula stays in its list item or quote', () => {
    expect(expandDisplayMath('- item\n\n  $$x$$')).toBe('- item\n\n  $$\n  x\n  $$');
    expect(expandDisplayMath('> $$x$$')).toBe('> $$\n> x\n> $$');
  });

  it('leaves inline formulas, multi-line math and other text alone', () => {
    for (const text of ['Sum $$x$$ in text', '$$\nx\n$$', 'plain', '$x$ and $y$', '$$a$$ and $$b$$', '$$ $$']) {
      expect(expandDisplayMath(text)).toBe(text);
    }
  });

  it('leaves $$ inside code fences and multi-line formulas alone', () => {
    const fenced = '```tex\n$$x^2$$\n```\n~~~\n$$y$$\n~~~';
    expect(expandDisplayMath(fenced)).toBe(fenced);
    const quotedFence = '> ```\n> $$x$$\n> ```';
    expect(expandDisplayMath(quotedFence)).toBe(quotedFence);
    const math = '$$\n$$x$$\n$$';
    expect(expandDisplayMath(math)).toBe(math);
    expect(expandDisplayMath('```\n$$a$$\n```\n$$b$$')).toBe('```\n$$a$$\n```\n$$\nb\n$$');
  });
});

describe('display formulas as rendered', () => {
  it('renders a one-line $$ formula on its own line as a KaTeX display block', () => {
    const html = render('Echo: Formula:\n$$x^2$$\nand $y$ inline\n\nThe block:\n\n$$a^2 + b^2 = c^2$$\n');
    expect(count(html, 'class="katex-display"')).toBe(2);
    // Two display formulas and the inline `$y$`.
    expect(count(html, 'class="katex"')).toBe(3);
  });

  it('renders the multi-line form as a display block', () => {
    expect(count(render('Before\n\n$$\nx^2\n$$\n\nafter'), 'class="katex-display"')).toBe(1);
  });

  it('keeps inline formulas inline', () => {
    const html = render('The formula $E = mc^2$ and $$x$$ within a sentence.');
    expect(count(html, 'katex-display')).toBe(0);
    expect(count(html, 'class="katex"')).toBe(2);
  });

  it('does not render $$ inside a code fence', () => {
    const html = render('```\n$$x^2$$\n```');
    expect(html).not.toContain('katex');
    expect(html).toContain('$$x^2$$');
  });
});
