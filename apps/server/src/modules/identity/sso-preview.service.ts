import type { SsoPreview, SsoPreviewStart, SsoPreviewStartBody } from '@aiplatform/contracts';
import { randomToken, sha256 } from '../../lib/auth/secrets.js';
import { AppError, InputError } from '../../lib/http/errors.js';
import { type Clock, addSeconds, iso } from '../../lib/runtime/clock.js';
import type { AdminContext } from '../../policies/actor.js';
import { authorize } from '../../policies/policy.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { ExternalProfile } from './external-profile.js';
import type { ExternalSignInService } from './external-sign-in.service.js';
import type { ProviderRecord } from './provider-record.js';
import type { SsoTicketsRepo } from './sso-tickets.repo.js';

/** How long a test sign-in's result waits for the administrator's page. */
export const PREVIEW_TTL_SECONDS = 600;

/** Sends the administrator's browser to the provider for a flow marked as their preview. */
export type BrowserPreviewStarter = (
  provider: ProviderRecord,
  adminId: number,
  publicBase: string,
) => Promise<Pick<SsoPreviewStart, 'url' | 'form'>>;

/** Reads a person's profile from a directory with their login and password (LDAP). */
export type DirectoryProfileReader = (
  provider: ProviderRecord,
  login: string,
  password: string,
) => Promise<ExternalProfile>;

export interface SsoPreviewDeps {
  providers: { byId(id: number): Promise<ProviderRecord | undefined> };
  signIn: Pick<ExternalSignInService, 'preview'>;
  tickets: SsoTicketsRepo;
  groups: Pick<GroupsRepo, 'findById'>;
  /** Records the preview in the audit log (no provider change: nothing to tell other instances). */
  tx: AdminTransactions;
  clock: Clock;
}

/**
 * The administrator's test sign-in: the person signs in at the provider once, and instead of
 * an account being created, linked, moved or signed in, the administrator sees what the
 * provider sent and what the account rules and mappings would do with it. A browser flow's
 * result waits under a one-time code (hashed, ten minutes) that only the administrator who
 * started it can spend.
 */
export class SsoPreviewService {
  private readonly browserFlows = new Map<ProviderRecord['type'], BrowserPreviewStarter>();
  private readonly directories = new Map<ProviderRecord['type'], DirectoryProfileReader>();

  constructor(private readonly d: SsoPreviewDeps) {}

  registerBrowserFlow(type: ProviderRecord['type'], start: BrowserPreviewStarter): void {
    this.browserFlows.set(type, start);
  }

  registerDirectory(type: ProviderRecord['type'], read: DirectoryProfileReader): void {
    this.directories.set(type, read);
  }

  async start(ctx: AdminContext, id: number, body: SsoPreviewStartBody, publicBase: string): Promise<SsoPreviewStart> {
    authorize(ctx.actor, 'identity.manage');
    const provider = await this.d.providers.byId(id);
    if (!provider) throw new AppError('NOT_FOUND');
    const directory = this.directories.get(provider.type);
    if (directory) {
      if (!body.login || !body.password) throw new InputError(['validation.account.required']);
      const preview = await this.build(provider, await directory(provider, body.login, body.password));
      await this.audited(ctx, provider, preview);
      return { url: null, form: null, preview };
    }
    const browser = this.browserFlows.get(provider.type);
    if (!browser) throw new AppError('NOT_FOUND');
    return { ...(await browser(provider, ctx.actor.id, publicBase)), preview: null };
  }

  /** At the callback of a preview flow: keeps the result for `adminId` and answers its one-time code. */
  async store(adminId: number, provider: ProviderRecord, profile: ExternalProfile): Promise<string> {
    const preview = await this.build(provider, profile);
    const code = randomToken(32);
    await this.d.tickets.insertPreview({
      code_hash: sha256(code),
      user_id: adminId,
      provider_id: provider.id,
      result: JSON.stringify(preview),
      expires_at: iso(addSeconds(this.d.clock.now(), PREVIEW_TTL_SECONDS)),
    });
    return code;
  }

  /** Spends the code; another administrator's, another provider's, used or expired: SSO_STATE_INVALID. */
  async result(ctx: AdminContext, id: number, code: string): Promise<SsoPreview> {
    authorize(ctx.actor, 'identity.manage');
    const provider = await this.d.providers.byId(id);
    if (!provider) throw new AppError('NOT_FOUND');
    return this.d.tx.run(ctx, async (trx) => {
      const row = await this.d.tickets.takePreview(sha256(code), ctx.actor.id, id, trx);
      if (!row || row.expires_at <= iso(this.d.clock.now())) throw new AppError('SSO_STATE_INVALID');
      const preview = JSON.parse(row.result) as SsoPreview;
      return { result: preview, audit: auditEntry(provider, preview) };
    });
  }

  private async audited(ctx: AdminContext, provider: ProviderRecord, preview: SsoPreview): Promise<void> {
    await this.d.tx.run(ctx, async () => ({ result: null, audit: auditEntry(provider, preview) }));
  }

  private async build(provider: ProviderRecord, profile: ExternalProfile): Promise<SsoPreview> {
    const { decision, mapped } = await this.d.signIn.preview(provider, profile);
    const group = mapped.groupId === null ? undefined : await this.d.groups.findById(mapped.groupId);
    return {
      subject: profile.subject,
      email: profile.email ?? null,
      email_verified: profile.emailVerified,
      username: profile.username ?? null,
      name: profile.name ?? null,
      groups: profile.groups,
      claims: profile.claims,
      outcome: {
        account: decision.account,
        ...('user' in decision ? { user_id: decision.user.id } : {}),
        group_id: mapped.groupId,
        group_name: group?.name ?? null,
        role: mapped.role,
      },
    };
  }
}

/** The audit row of a preview: who was previewed and the outcome, never the claims themselves. */
function auditEntry(provider: ProviderRecord, preview: SsoPreview) {
  return {
    action: 'identity.preview',
    targetType: 'identity_provider',
    targetId: provider.id,
    after: { provider: provider.slug, subject: preview.subject, ...preview.outcome },
  };
}
