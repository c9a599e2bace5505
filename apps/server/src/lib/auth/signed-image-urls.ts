import crypto from 'node:crypto';
import type { Clock } from '../runtime/clock.js';

/** How long a signed image address stays valid at least. */
export const IMAGE_URL_TTL_SECONDS = 15 * 60;
/**
 * Expiry times are rounded up to this step, so answers given within it carry the same
 * address and the browser's cache serves the image again (valid 15 to 20 minutes).
 */
const EXPIRY_STEP_SECONDS = 5 * 60;

/** Where an uploaded chat image is served. */
export const imagePath = (fileId: string) => `/api/chat/images/${fileId}`;

/**
 * Short-lived image addresses that work without a bearer header, so a plain `<img>` tag
 * (exports, markdown, mail) can show an uploaded image. The signature binds the image,
 * its owner and the expiry with an HMAC keyed from the application secret; the owner is
 * not in the address, it is read from the stored image when the signature is checked.
 */
export class SignedImageUrls {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly clock: Clock,
  ) {
    // A key of its own: an image signature can never stand in for another HMAC of the app.
    this.key = crypto.createHmac('sha256', secret).update('chat-image-url').digest();
  }

  private signature(fileId: string, ownerId: number, exp: number): string {
    return crypto.createHmac('sha256', this.key).update(`${fileId}.${ownerId}.${exp}`).digest('base64url');
  }

  /** A fresh signed address of an image of `ownerId`. */
  url(fileId: string, ownerId: number): string {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const exp = Math.ceil((now + IMAGE_URL_TTL_SECONDS) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS;
    return `${imagePath(fileId)}?exp=${exp}&sig=${this.signature(fileId, ownerId, exp)}`;
  }

  /** The addresses of one owner's images (for presenting their messages). */
  forOwner(ownerId: number): (fileId: string) => string {
    return (fileId) => this.url(fileId, ownerId);
  }

  /** True when `sig` was made for this image, owner and expiry, and the expiry has not passed. */
  verify(fileId: string, ownerId: number, exp: number, sig: string): boolean {
    if (exp * 1000 <= this.clock.now().getTime()) return false;
    const expected = Buffer.from(this.signature(fileId, ownerId, exp));
    const given = Buffer.from(sig);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }
}
