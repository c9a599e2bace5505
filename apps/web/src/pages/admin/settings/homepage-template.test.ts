import { describe, expect, it } from 'vitest';
import { defaultHomepageHtml, escapeHtml, homepagePreviewDocument } from './homepage-template';

describe('homepage template', () => {
  it('escapes the translated words', () => {
    const html = defaultHomepageHtml({
      title: 'Welcome to <Acme> & "Co"',
      intro: 'Intro',
      signIn: 'Sign in',
      register: 'Register',
      features: [{ title: 'One', text: '<script>x</script>' }],
    });
    expect(html).toContain('Welcome to &lt;Acme&gt; &amp; &quot;Co&quot;');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('href="/login"');
    expect(html).toContain('href="/register"');
  });

  it('wraps the page like the server does', () => {
    const doc = homepagePreviewDocument('<h1>Hi</h1>', 'A & B');
    expect(doc.startsWith('<!doctype html>')).toBe(true);
    expect(doc).toContain('<title>A &amp; B</title>');
    expect(doc).toContain('<body><h1>Hi</h1></body>');
    expect(escapeHtml(`'`)).toBe('&#39;');
  });
});
