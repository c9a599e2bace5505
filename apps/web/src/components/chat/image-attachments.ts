import { MAX_IMAGES_PER_MESSAGE, type MessageFile } from '@aiplatform/contracts';

/** How many more images the composer takes. */
export const roomFor = (attached: number): number => Math.max(0, MAX_IMAGES_PER_MESSAGE - attached);

/**
 * Of the files picked at once, those that still fit beside the images already attached
 * (in the order picked), and how many were left out for the limit.
 */
export function fitToLimit<T>(attached: number, picked: readonly T[]): { accepted: T[]; overLimit: number } {
  const accepted = picked.slice(0, roomFor(attached));
  return { accepted, overLimit: picked.length - accepted.length };
}

/** The attached list with the uploaded images appended in order: each id once, never past the limit. */
export function withImages(list: readonly MessageFile[], added: readonly MessageFile[]): MessageFile[] {
  const out = [...list];
  for (const image of added) {
    if (out.length >= MAX_IMAGES_PER_MESSAGE) break;
    if (!out.some((f) => f.id === image.id)) out.push(image);
  }
  return out;
}

/** Only what a message shows of an image (an upload record carries more). */
export const asMessageFile = (image: MessageFile): MessageFile => ({
  id: image.id,
  url: image.url,
  original_name: image.original_name,
});
