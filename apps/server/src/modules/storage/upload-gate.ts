import { AppError } from '../../lib/http/errors.js';
import type { AddressUploads } from './address-uploads.js';
import type { StorageAlerts } from './storage-alerts.js';
import type { StorageBudget } from './storage-budget.js';
import type { Db } from '../../db/types.js';

/** An upload under way, with the budget read when it began. */
export interface UploadTicket {
  /**
   * Inside the transaction that records the upload, after the owner's row lock: the
   * deciding budget check for storage growing by `growth` bytes (it throws to refuse).
   */
  admit(trx: Db, growth: number): Promise<void>;
  /** The upload failed: its bytes go back to the address's allowance. */
  cancel(): Promise<void>;
}

/**
 * What every stored upload (chat image, avatar) passes besides its owner's own limits: the
 * site's storage budget and the uploading address's hourly allowance. The steps, in order:
 * `begin` before any byte is written, its ticket's `admit` in the transaction that records
 * the upload, `stored` after it committed.
 */
export class UploadGate {
  constructor(
    private readonly budget: StorageBudget,
    private readonly addresses: AddressUploads,
    private readonly alerts: StorageAlerts,
  ) {}

  /**
   * Before any byte is written: a site already too full refuses first (it uses no
   * allowance), then the address's allowance is counted. The settings are read here, never
   * inside the recording transaction.
   */
  async begin(ip: string, bytes: number, freed = 0): Promise<UploadTicket> {
    const budget = await this.budget.budgetBytes();
    await this.alertingWhenFull(this.budget.precheck(bytes - freed, budget));
    const giveBack = await this.addresses.take(ip, bytes);
    return {
      admit: (trx, growth) => this.alertingWhenFull(this.budget.admit(trx, growth, budget)),
      cancel: () => giveBack().catch(() => undefined),
    };
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
