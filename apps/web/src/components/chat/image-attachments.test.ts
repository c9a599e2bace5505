import { MAX_IMAGES_PER_MESSAGE, type MessageFile } from '@aiplatform/contracts';
import { describe, expect, it } from 'vitest';
import { asMessageFile, fitToLimit, roomFor, withImages } from './image-attachments';

const image = (n: number): MessageFile => ({
  id: `id-${n}`,
  url: `/api/chat/images/id-${n}`,
  original_name: `${n}.png`,
});

describe('image attachment limit', () => {
  it(`takes at most ${MAX_IMAGES_PER_MESSAGE} images in all`, () => {
    expect(MAX_IMAGES_PER_MESSAGE).toBe(4);
    expect(roomFor(0)).toBe(4);
    expect(roomFor(3)).toBe(1);
    expect(roomFor(4)).toBe(0);
    expect(roomFor(6)).toBe(0);
  });

  it('keeps the files picked first and counts the ones left out', () => {
    expect(fitToLimit(0, ['a', 'b'])).toEqual({ accepted: ['a', 'b'], overLimit: 0 });
    expect(fitToLimit(1, ['a', 'b', 'c', 'd', 'e'])).toEqual({ accepted: ['a', 'b', 'c'], overLimit: 2 });
    expect(fitToLimit(4, ['a'])).toEqual({ accepted: [], overLimit: 1 });
  });

  it('appends uploads in order, each once, and never past the limit', () => {
    const two = withImages([], [image(1), image(2)]);
    expect(two.map((f) => f.id)).toEqual(['id-1', 'id-2']);
    expect(withImages(two, [image(2), image(3)]).map((f) => f.id)).toEqual(['id-1', 'id-2', 'id-3']);
    const full = withImages(two, [image(3), image(4), image(5), image(6)]);
    expect(full.map((f) => f.id)).toEqual(['id-1', 'id-2', 'id-3', 'id-4']);
    expect(two).toHaveLength(2);
  });

  it('sends an upload record as the message file it becomes', () => {
    const uploaded = { ...image(7), mime: 'image/png', size: 68 };
    expect(asMessageFile(uploaded)).toEqual(image(7));
  });
});
