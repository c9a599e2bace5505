import type { AdminSettings, SettingsUpdateBody } from '@aiplatform/contracts';
import { InputError } from '../../lib/http/errors.js';
import type { Actor, AdminContext } from '../../policies/actor.js';
import { authorize, can } from '../../policies/policy.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import { changedSections, mergeSettings, pickSections } from './settings-merge.js';
import { toAdminSettings } from './settings.presenter.js';
import type { SettingsRepo } from './settings.repo.js';
import { type SettingsService, parseStoredSettings } from './settings.service.js';
import type { Db } from '../../db/types.js';

/** GET/PUT /admin/settings: reading (group administrators read-only) and partial updates. */
export class AdminSettingsService {
  constructor(private readonly d: { settings: SettingsService; repo: SettingsRepo; tx: AdminTransactions }) {}

  async get(actor: Actor): Promise<AdminSettings> {
    authorize(actor, 'settings.read');
    return toAdminSettings(await this.d.settings.getSettings(), !can(actor, 'settings.manage'));
  }

  async update(ctx: AdminContext, body: SettingsUpdateBody): Promise<AdminSettings> {
    authorize(ctx.actor, 'settings.manage');
    const { settings, changed } = await this.d.tx.run(ctx, async (trx, now) => {
      const before = parseStoredSettings(await this.d.repo.lockAll(trx));
      const after = mergeSettings(before, body);
      await this.assertReferences(before, after, trx);
      const changed = changedSections(before, after);
      for (const key of changed) await this.d.repo.writeSection(key, after[key], now, trx);
      return {
        result: { settings: after, changed: changed.length > 0 },
        // Saving an unchanged form is no change and leaves no audit row.
        audit: changed.length
          ? {
              action: 'settings.update',
              targetType: 'settings',
              targetId: null,
              before: pickSections(before, changed),
              after: pickSections(after, changed),
            }
          : [],
      };
    });
    // Only after the commit: an instance reloading earlier would cache the old values again.
    if (changed) await this.d.settings.changed();
    return toAdminSettings(settings, false);
  }

  /**
   * Settings that name a model or a group must name an existing one. Checked only when
   * the value changes, so a form saved for another field still works after the named
   * row has gone.
   */
  private async assertReferences(
    before: { ai: { default_model: string }; user: { default_group_id: number } },
    after: { ai: { default_model: string }; user: { default_group_id: number } },
    trx: Db,
  ): Promise<void> {
    const problems: string[] = [];
    if (
      after.ai.default_model !== before.ai.default_model &&
      !(await this.d.repo.modelExists(after.ai.default_model, trx))
    )
      problems.push('validation.defaultModel.notFound');
    if (
      after.user.default_group_id !== before.user.default_group_id &&
      !(await this.d.repo.groupExists(after.user.default_group_id, trx))
    )
      problems.push('validation.group.notFound');
    if (problems.length) throw new InputError(problems);
  }
}
