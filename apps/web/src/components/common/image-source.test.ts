import { describe, expect, it } from 'vitest';
import { isOwnImage, ownImageUrl } from './image-source';

const SITE = 'https://chat.example.org';

describe('isOwnImage', () => {
  it('accepts images of this site and inline images', () => {
    for (const src of [
      '/api/chat/images/42',
      'api/public/site-images/logo.png',
      `${SITE}/api/chat/images/42`,
      'data:image/png;base64,iVBORw0KGgo=',
      `blob:${SITE}/0b3f6c1e-1111-2222-3333-444455556666`,
    ]) {
      expect(isOwnImage(src, SITE), src).toBe(true);
    }
  });

  it('refuses images of any other origin, however written', () => {
    for (const src of [
      'https://evil.example/p.png?d=SECRET',
      'http://chat.example.org/p.png',
      'https://chat.example.org:8443/p.png',
      '//evil.example/p.png',
      'http://127.0.0.1:9/p.png',
      'blob:https://evil.example/0b3f6c1e',
      'data:text/html,<script>1</script>',
    ]) {
      expect(isOwnImage(src, SITE), src).toBe(false);
    }
  });
});

describe('ownImageUrl', () => {
  it('keeps a configured logo or favicon of this site, and drops one elsewhere or unsafe', () => {
    expect(ownImageUrl('/api/public/site-images/logo-1.png', SITE)).toBe('/api/public/site-images/logo-1.png');
    expect(ownImageUrl(`${SITE}/favicon.ico`, SITE)).toBe(`${SITE}/favicon.ico`);
    expect(ownImageUrl('https://cdn.example.net/logo.png', SITE)).toBe('');
    expect(ownImageUrl('javascript:alert(1)', SITE)).toBe('');
    expect(ownImageUrl('', SITE)).toBe('');
  });
});
