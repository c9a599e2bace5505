import { AppError } from '../../lib/errors.js';
import type { Db } from '../users/users.repo.js';
import type { AddressUploads } from './address-uploads.js';
import type { StorageAlerts } from './storage-alerts.js';
import type { StorageBudget } from './storage-budget.js';

/** An upload under way: `cancel` gives its bytes back to the address's allowance when it fails. */
export interface UploadTicket {
  cancel(): Promise<void>;
}

/**
 * What every stored upload (chat image, avatar) passes besides its owner's own limits: the
 * site's storage budget and the uploading address's hourly allowance. The steps, in order:
 * `begin` before any byte is written, `admit` in the transaction that records the upload,
 * `stored` after it committed.
 */
export class UploadGate {
  constructor(
    private readonly budget: StorageBudget,
    private readonly addresses: AddressUploads,
    private readonly alerts: StorageAlerts,
  ) {}

  /** A site already too full refuses first (it uses no allowance), then the address's allowance is counted. */
  async begin(ip: string, bytes: number, freed = 0): Promise<UploadTicket> {
    await this.alertingWhenFull(this.budget.precheck(bytes - freed));
    const giveBack = await this.addresses.take(ip, bytes);
    return { cancel: () => giveBack().catch(() => undefined) };
  }

  /** Inside the recording transaction, after the owner's row lock: the deciding budget check. */
  admit(trx: Db, growth: number): Promise<void> {
    return this.alertingWhenFull(this.budget.admit(trx, growth));
  }

  /** After the commit: the administrators hear of storage nearly full (in the background). */
  stored(): void {
    void this.alerts.check();
  }

  /** A refusal for want of room is also the moment to make sure the administrators know. */
  private async alertingWhenFull(check: Promise<void>): Promise<void> {
    try {
      await check;
    } catch (err) {
      if (err instanceof AppError && err.code === 'SITE_STORAGE_FULL') void this.alerts.check();
      throw err;
    }
  }
}
