import { describe, expect, it } from 'vitest';
import { sanitizeHomepageHtml } from './homepage-sanitize.js';

const styleOf = (html: string) => /style="([^"]*)"/.exec(sanitizeHomepageHtml(html))?.[1] ?? null;

describe('homepage cleaning', () => {
  it('keeps inline styles from the safe list', () => {
    expect(
      styleOf(
        '<div style="margin: 0 auto; padding: 8px 16px; color: rgb(17, 24, 39); background-color: #f5f5f5; ' +
          'border: 1px solid #e5e7eb; border-radius: 8px; font-size: 1.25rem; font-weight: 600; ' +
          "text-align: center; display: flex; flex-wrap: wrap; gap: 12px; font-family: 'Noto Sans', sans-serif\">x</div>",
      ),
    ).toBe(
      'margin:0 auto;padding:8px 16px;color:rgb(17, 24, 39);background-color:#f5f5f5;' +
        'border:1px solid #e5e7eb;border-radius:8px;font-size:1.25rem;font-weight:600;' +
        "text-align:center;display:flex;flex-wrap:wrap;gap:12px;font-family:'Noto Sans', sans-serif",
    );
  });

  it('drops declarations that could load something, run something or cover the page', () => {
    const unsafe = [
      'background: url(https://evil.example/x.png)',
      'background-image: url(javascript:alert(1))',
      'color: expression(alert(1))',
      'width: expression(alert(1))',
      'position: fixed',
      'position: absolute',
      'top: 0',
      'z-index: 9999',
      'behavior: url(x.htc)',
      '-moz-binding: url(x.xml#x)',
      'font-family: url(x)',
      'display: grid',
      "content: 'x'",
    ];
    for (const declaration of unsafe) {
      expect(styleOf(`<p style="${declaration}; color: red">x</p>`), declaration).toBe('color:red');
    }
  });

  it('opens links outside the frame: this site in the whole window, other sites in a new tab', () => {
    const html = sanitizeHomepageHtml(
      '<a href="/login">in</a> <a href="/register" target="_blank">up</a> ' +
        '<a href="https://example.com/docs">docs</a> <a href="http://example.com" target="_self" rel="opener">old</a> ' +
        '<a href="mailto:it@example.com">mail</a> <a href="#faq" target="_top">faq</a> <a href="javascript:x()">bad</a> <a href="data:text/html,x">data</a>',
    );
    expect(html).toContain('<a href="/login" target="_top">in</a>');
    expect(html).toContain('<a href="/register" target="_top">up</a>');
    expect(html).toContain('<a href="https://example.com/docs" target="_blank" rel="noopener noreferrer">docs</a>');
    expect(html).toContain('<a href="http://example.com" target="_blank" rel="noopener noreferrer">old</a>');
    expect(html).toContain('<a href="mailto:it@example.com" target="_top">mail</a>');
    expect(html).toContain('<a href="#faq">faq</a>');
    expect(html).toContain('<a>bad</a>');
    expect(html).toContain('<a>data</a>');
  });
});
