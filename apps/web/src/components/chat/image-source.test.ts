import { describe, expect, it } from 'vitest';
import { isOwnImage } from './image-source';

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
