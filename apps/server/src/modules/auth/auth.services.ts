import path from 'node:path';
import { LIMITS } from '@aiplatform/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { FailureSlots } from '../../lib/auth/failure-slots.js';
import type { KvStore } from '../../lib/data/kv-store.js';
import type { Mailer } from '../../lib/runtime/mailer.js';
import type { AccessTokens } from '../../lib/auth/tokens.js';
import type { TrustedNetworks } from '../../lib/auth/trusted-networks.js';
import type { CreditsRepo } from '../credits/credits.repo.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UsersRepo } from '../users/users.repo.js';
import type { UploadGate } from '../storage/upload-gate.js';
import { AvatarRepo } from './avatar.repo.js';
import { AvatarService } from './avatar.service.js';
import { EmailCodeRepo } from './email-code.repo.js';
import { EmailCodeService } from './email-code.service.js';
import { LoginAttemptsRepo } from './login-attempts.repo.js';
import { LoginThrottle } from './login-throttle.js';
import { LoginService } from './login.service.js';
import { ProfileService } from './profile.service.js';
import { RegistrationService } from './registration.service.js';
import type { SessionCache } from '../../lib/auth/session-cache.js';
import { SessionRepo } from './session.repo.js';
import { SessionService } from './session.service.js';

export interface AuthDeps {
  db: Kysely<Database>;
  users: UsersRepo;
  credits: CreditsRepo;
  groups: GroupsRepo;
  settings: SettingsService;
  tokens: AccessTokens;
  mailer: Mailer;
  kv: KvStore;
  secret: string;
  clock: Clock;
  dataDir: string;
  loginLimitScale: number;
  /** Client addresses exempt from the account pause and the per-address limit. */
  trustedNetworks: TrustedNetworks;
  /** Emptied on every revocation and account change; absent, nothing is cached. */
  sessionCache?: SessionCache;
  /** The site's storage budget and per-address allowance every upload passes. */
  uploads: UploadGate;
  /** Told after a sign-up drew its opening credits from a group's pool (the low-pool email). */
  onPoolChanged?: (groupId: number) => void;
}

/** Wires the account services together; the composition root calls this once. */
export function createAuthServices(d: AuthDeps) {
  const sessionsChanged = d.sessionCache ? () => d.sessionCache!.changed() : undefined;
  const sessionRepo = new SessionRepo(d.db, sessionsChanged);
  const passwordTries = new FailureSlots(
    d.kv,
    'password-change-failures',
    LIMITS.passwordChangeMaxFailures,
    LIMITS.passwordChangeWindowSeconds,
  );
  const profile = new ProfileService(
    d.users,
    d.credits,
    sessionRepo,
    d.settings,
    d.clock,
    passwordTries,
    sessionsChanged,
  );
  const sessions = new SessionService(sessionRepo, d.tokens, d.settings, profile, d.clock);
  const emailCodes = new EmailCodeService(new EmailCodeRepo(d.db), d.users, d.mailer, d.kv, d.secret, d.clock);
  return {
    profile,
    sessions,
    emailCodes,
    login: new LoginService(
      d.users,
      new LoginThrottle({
        attempts: new LoginAttemptsRepo(d.db),
        settings: d.settings,
        kv: d.kv,
        clock: d.clock,
        trusted: d.trustedNetworks,
        limitScale: d.loginLimitScale,
      }),
      emailCodes,
      sessions,
      d.settings,
      d.clock,
    ),
    registration: new RegistrationService(d.db, d.users, d.groups, d.settings, d.clock, emailCodes, d.onPoolChanged),
    avatars: new AvatarService(path.join(d.dataDir, 'avatars'), new AvatarRepo(d.db), profile, d.uploads, d.clock),
  };
}
export type AuthServices = ReturnType<typeof createAuthServices>;
