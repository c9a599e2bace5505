import { LIMITS } from '@aiplatform/contracts';

/** JPG, PNG, GIF and WebP images only. */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
const IMAGE_EXTENSIONS = /\.(jpe?g|png|gif|webp)$/i;

export type ImageProblem = 'type' | 'size' | null;

/**
 * Checked before uploading so a wrong file never travels; the server checks the bytes
 * again. Some systems report no MIME type, so the extension decides then.
 */
export function checkImageFile(file: { name: string; type: string; size: number }): ImageProblem {
  const typeOk = file.type ? (IMAGE_TYPES as readonly string[]).includes(file.type) : IMAGE_EXTENSIONS.test(file.name);
  if (!typeOk) return 'type';
  if (file.size > LIMITS.imageMaxBytes) return 'size';
  return null;
}
