import type { RegisterBody } from '@aiplatform/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { type Clock, iso } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import { createAccount } from '../users/account-creation.js';
import type { UsersRepo } from '../users/users.repo.js';
import { assertIdentityFree, conflictFromDbError } from './identity.js';

/** Self-service sign-up and the availability checks the form uses while typing. */
export class RegistrationService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UsersRepo,
    private readonly groups: GroupsRepo,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
  ) {}

  async register(body: RegisterBody): Promise<{ id: number; username: string; email: string }> {
    const settings = await this.settings.getSettings();
    if (!settings.user.allow_register) throw new AppError('REGISTRATION_CLOSED');
    await assertIdentityFree(this.users, body);
    try {
      const id = await createAccount(
        this.db,
        { users: this.users, groups: this.groups },
        {
          email: body.email,
          username: body.username,
          phone: body.phone,
          password: body.password,
          role: 'user',
          groupId: settings.user.default_group_id,
          credits: settings.user.default_credits,
          tokens: settings.user.default_tokens,
          grantDescription: 'server.ledger.registerGrant',
          now: iso(this.clock.now()),
        },
      );
      return { id, username: body.username, email: body.email };
    } catch (err) {
      throw conflictFromDbError(err) ?? err;
    }
  }

  async isEmailAvailable(email: string): Promise<boolean> {
    return !(await this.users.findByEmail(email));
  }

  async isUsernameAvailable(username: string): Promise<boolean> {
    return !(await this.users.findByUsername(username));
  }
}
