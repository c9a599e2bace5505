import crypto from 'node:crypto';
import type { ModuleAuthUrl } from '@aiplatform/contracts';
import { SignJWT } from 'jose';
import type { UserRow } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { AppError } from '../../lib/http/errors.js';
import { SIGNING_ALG, type ModuleSigningKey } from './module-signing-key.js';
import type { ModulesRepo } from './modules.repo.js';

export const HANDOFF_ISSUER = 'aiplatform';
/** Long enough for a browser to follow the link, short enough that a leaked URL is soon useless. */
export const HANDOFF_TTL_SECONDS = 60;

/** Single sign-on into a module: the address to open, carrying a signed token when the module wants one. */
export class ModuleSsoService {
  constructor(private readonly d: { repo: ModulesRepo; clock: Clock; key: ModuleSigningKey }) {}

  /** The public key set modules verify tokens with. */
  get jwks() {
    return this.d.key.jwks;
  }

  /** A module that is inactive or hidden from the user's group does not exist for them. */
  async authUrl(user: UserRow, name: string): Promise<ModuleAuthUrl> {
    const m = await this.d.repo.findActiveByNameFor(name, user.group_id);
    if (!m) throw new AppError('NOT_FOUND');
    if (m.auth_mode === 'none') return { url: m.module_url, expires_in: null };
    const url = new URL(m.module_url);
    url.searchParams.set('token', await this.sign(user, m.name));
    return { url: url.toString(), expires_in: HANDOFF_TTL_SECONDS };
  }

  private async sign(user: UserRow, audience: string): Promise<string> {
    const { privateKey, kid } = this.d.key;
    const group = user.group_id === null ? undefined : await this.d.repo.findGroup(user.group_id);
    const iat = Math.floor(this.d.clock.now().getTime() / 1000);
    return new SignJWT({
      email: user.email,
      username: user.username,
      role: user.role,
      group: group ? { id: group.id, name: group.name } : null,
    })
      .setProtectedHeader({ alg: SIGNING_ALG, kid, typ: 'JWT' })
      .setIssuer(HANDOFF_ISSUER)
      .setAudience(audience)
      .setSubject(String(user.id))
      .setIssuedAt(iat)
      .setExpirationTime(iat + HANDOFF_TTL_SECONDS)
      .setJti(crypto.randomUUID())
      .sign(privateKey);
  }
}
