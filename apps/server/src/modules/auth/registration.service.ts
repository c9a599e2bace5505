import type { Language, RegisterBody } from '@aiplatform/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { type Clock, iso } from '../../lib/runtime/clock.js';
import { AppError, InputError } from '../../lib/http/errors.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import { createAccount } from '../users/account-creation.js';
import type { UsersRepo } from '../users/users.repo.js';
import type { EmailCodeService } from './email-code.service.js';
import { assertIdentityFree, conflictFromDbError } from '../users/identity.js';

/** Self-service sign-up and the availability checks the form uses while typing. */
export class RegistrationService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UsersRepo,
    private readonly groups: GroupsRepo,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly codes: EmailCodeService,
    private readonly onPoolChanged: (groupId: number) => void = () => undefined,
  ) {}

  /**
   * With `user.email_verification` on, a sign-up proves the address with an emailed
   * code. The code is checked (and spent) only once everything else about the account is
   * known to be acceptable, so a taken username does not cost the user their code.
   */
  async register(body: RegisterBody): Promise<{ id: number; username: string; email: string }> {
    const settings = await this.settings.getSettings();
    if (!settings.user.allow_register) throw new AppError('REGISTRATION_CLOSED');
    if (settings.user.email_verification && !body.code) throw new InputError(['validation.code.required']);
    await assertIdentityFree(this.users, body);
    if (settings.user.email_verification && body.code) await this.codes.verify(body.email, body.code);
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
          // From the group's pool when it has one (none when it is short), else from the site.
          credits: settings.user.default_credits,
          siteMayGrant: true,
          whenPoolShort: 'open-empty',
          tokens: settings.user.default_tokens,
          grantDescription: 'server.ledger.registerGrant',
          now: iso(this.clock.now()),
        },
      );
      this.onPoolChanged(settings.user.default_group_id);
      return { id, username: body.username, email: body.email };
    } catch (err) {
      throw conflictFromDbError(err) ?? err;
    }
  }

  /** A sign-up code: only while sign-up is open and asks for one, and only for an unregistered address. */
  async sendCode(email: string, lang: Language): Promise<void> {
    const { user } = await this.settings.getSettings();
    if (!user.allow_register) throw new AppError('REGISTRATION_CLOSED');
    // Without verification there is nothing to send; refusing keeps this from mailing strangers.
    if (!user.email_verification) throw new AppError('FORBIDDEN');
    if (await this.users.findByEmail(email)) throw new AppError('CONFLICT_EMAIL');
    await this.codes.deliver(email, lang, 'register');
  }

  async isEmailAvailable(email: string): Promise<boolean> {
    return !(await this.users.findByEmail(email));
  }

  async isUsernameAvailable(username: string): Promise<boolean> {
    return !(await this.users.findByUsername(username));
  }
}
