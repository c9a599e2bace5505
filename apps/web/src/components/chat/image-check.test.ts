import { describe, expect, it } from 'vitest';
import { checkImageFile } from './image-check';

const MB = 1024 * 1024;

describe('checkImageFile', () => {
  it('accepts JPG, PNG, GIF and WebP up to 10 MB', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/gif', 'image/webp'])
      expect(checkImageFile({ name: 'a', type, size: 10 * MB })).toBeNull();
  });

  it('refuses other types and larger files', () => {
    expect(checkImageFile({ name: 'a.svg', type: 'image/svg+xml', size: 10 })).toBe('type');
    expect(checkImageFile({ name: 'a.pdf', type: 'application/pdf', size: 10 })).toBe('type');
    expect(checkImageFile({ name: 'a.png', type: 'image/png', size: 10 * MB + 1 })).toBe('size');
  });

  it('falls back to the extension when the browser reports no type', () => {
    expect(checkImageFile({ name: 'photo.JPEG', type: '', size: 10 })).toBeNull();
    expect(checkImageFile({ name: 'notes.txt', type: '', size: 10 })).toBe('type');
  });
});
