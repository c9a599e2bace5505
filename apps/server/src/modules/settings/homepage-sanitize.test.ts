import { describe, expect, it } from 'vitest';
import { sanitizeHomepageHtml } from './homepage-sanitize.js';

const styleOf = (html: string) => /style="([^"]*)"/.exec(sanitizeHomepageHtml(html))?.[1] ?? null;
/** A paragraph with the given declarations, double quotes written as the entity. */
const styled = (style: string) => `<p style="${style.replaceAll('"', '&quot;')}">x</p>`;

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

  it('keeps font names of any script and still refuses anything that could load, escape or break out', () => {
    for (const family of [
      '"微软雅黑", sans-serif',
      "'PingFang SC', 'Hiragino Sans GB', \"Microsoft YaHei\"",
      '思源黑体',
      'Noto Sans CJK SC, 宋体',
      "'맑은 고딕', 'ธนบุรี', serif",
    ]) {
      expect(styleOf(styled(`font-family: ${family}`))?.replaceAll('&quot;', '"'), family).toBe(
        `font-family:${family}`,
      );
    }
    for (const family of [
      '"微软雅黑", url(x)',
      'expression(alert(1))',
      '"\\5fae\\8f6f"',
      '"a\\"b"',
      '"a;b"',
      '"a}b{"',
      '"<x>"',
      '"a(b)"',
      '"x", ',
    ]) {
      expect(styleOf(styled(`font-family: ${family}; font-style: italic`)), family).toBe('font-style:italic');
    }
  });

  it('sends only paths from the root to the whole window; relative links lose their address', () => {
    const html = sanitizeHomepageHtml(
      '<a href="about">rel</a> <a href="../x">up</a> <a href="./y" target="_top">dot</a> <a href="?q=1">query</a> ' +
        '<a href="">empty</a> <a href="docs/guide.html">nested</a> <a href="/help/faq">site</a> <a href="#top">top</a> ' +
        '<a href="//evil.example/x">pr</a> <a href="/\\evil.example">bs</a> <a href="/&#9;/evil.example">tab</a> ' +
        '<a href="https:evil.example">short</a>',
    );
    for (const text of ['rel', 'up', 'dot', 'query', 'empty', 'nested']) expect(html).toContain(`<a>${text}</a>`);
    expect(html).toContain('<a href="/help/faq" target="_top">site</a>');
    expect(html).toContain('<a href="#top">top</a>');
    expect(html).toContain('<a href="//evil.example/x" target="_blank" rel="noopener noreferrer">pr</a>');
    expect(html).toContain('<a href="/\\evil.example" target="_blank" rel="noopener noreferrer">bs</a>');
    expect(html).toContain('<a href="/\t/evil.example" target="_blank" rel="noopener noreferrer">tab</a>');
    expect(html).toContain('<a href="https:evil.example" target="_blank" rel="noopener noreferrer">short</a>');
    expect(html).not.toContain('_top">pr');
  });

  it('keeps images from paths on this site but not from another host written without its scheme', () => {
    const html = sanitizeHomepageHtml(
      '<img src="/api/public/site-images/a.png" alt="logo"><img src="//evil.example/a.png" alt="pr"><img src="/\\evil.example/a.png" alt="bs">',
    );
    expect(html).toBe('<img src="/api/public/site-images/a.png" alt="logo" />');
  });
});
