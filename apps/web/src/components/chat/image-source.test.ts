import { describe, expect, it } from 'vitest';
import { bareImageUrl, isSameOriginPath, isSignedImageUrl } from './image-source';

describe('image source', () => {
  const signed = '/api/chat/images/6f1c-uuid?exp=1900000000&sig=AbC-_9';

  it('loads a signed same-origin address directly', () => {
    expect(isSignedImageUrl(signed)).toBe(true);
    expect(isSignedImageUrl('/api/chat/images/6f1c-uuid')).toBe(false);
    expect(isSignedImageUrl('/api/chat/images/6f1c-uuid?exp=1900000000')).toBe(false);
  });

  it('never treats another host as same-origin', () => {
    expect(isSameOriginPath('//evil.example/x?sig=1')).toBe(false);
    expect(isSignedImageUrl('https://evil.example/api/chat/images/x?exp=1&sig=1')).toBe(false);
  });

  it('falls back to the bare address for the bearer token', () => {
    expect(bareImageUrl(signed)).toBe('/api/chat/images/6f1c-uuid');
    expect(bareImageUrl('/api/chat/images/6f1c-uuid')).toBe('/api/chat/images/6f1c-uuid');
  });
});
