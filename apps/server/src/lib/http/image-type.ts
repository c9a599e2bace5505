export const IMAGE_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
} as const;
export type ImageMime = keyof typeof IMAGE_TYPES;

/** Identifies an image by its magic bytes; the file name and declared type are not trusted. */
export function detectImageType(buf: Buffer): ImageMime | undefined {
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'image/jpeg';
  if (buf.length >= 6 && /^GIF8[79]a$/.test(buf.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (
    buf.length >= 12 &&
    buf.subarray(0, 4).toString('latin1') === 'RIFF' &&
    buf.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  return undefined;
}

/**
 * An ICO file (favicons only): reserved 0, type 1, at least one image, then one 16-byte
 * directory entry per image. Kept apart from IMAGE_TYPES so chat images and avatars never accept it.
 */
export function isIcon(buf: Buffer): boolean {
  if (buf.length < 6 + 16 || buf.readUInt32BE(0) !== 0x00000100) return false;
  const count = buf.readUInt16LE(4);
  return count > 0 && buf.length >= 6 + count * 16;
}
