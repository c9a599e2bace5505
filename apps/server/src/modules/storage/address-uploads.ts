import { AppError } from '../../lib/http/errors.js';
import type { KvStore } from '../../lib/data/kv-store.js';
import { type TrustedNetworks, clientKey } from '../../lib/auth/trusted-networks.js';
import type { SettingsService } from '../settings/settings.service.js';
import { MB } from './storage-budget.js';

/** The window of the per-address allowance: it opens with the address's first upload. */
export const ADDRESS_WINDOW_SECONDS = 3600;

/**
 * Bytes one client address may upload per hour (`storage.address_mb_per_hour`, 0 = no
 * limit), counted in the shared key-value store so that every instance counts together.
 * Accounts are cheap to make, so the per-account quota alone lets one address store as
 * much as it has accounts. Addresses are keyed as for sign-in (an IPv6 client by its /64);
 * TRUSTED_NETWORKS are exempt, as they are from the per-address sign-in limits.
 */
export class AddressUploads {
  constructor(private readonly d: { kv: KvStore; settings: SettingsService; trusted: TrustedNetworks }) {}

  /**
   * Counts `bytes` against the address's allowance, or refuses with 429 when they do not
   * fit. Answers a function that gives them back, for an upload that then fails.
   */
  async take(ip: string, bytes: number): Promise<() => Promise<void>> {
    const limit = (await this.d.settings.getSettings()).storage.address_mb_per_hour * MB;
    if (limit === 0 || this.d.trusted.has(ip)) return () => Promise.resolve();
    const key = `upload-bytes:${clientKey(ip)}`;
    const giveBack = async () => void (await this.d.kv.increment(key, -bytes, ADDRESS_WINDOW_SECONDS));
    if ((await this.d.kv.increment(key, bytes, ADDRESS_WINDOW_SECONDS)) > limit) {
      await giveBack();
      const seconds = await this.d.kv.ttl(key);
      throw new AppError('UPLOAD_RATE_LIMITED', { minutes: Math.max(1, Math.ceil(seconds / 60)) });
    }
    return giveBack;
  }
}
