import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import type { Language } from '@aiplatform/contracts';
import { Client, type Entry, InvalidCredentialsError, ResultCodeError } from 'ldapts';
import { AppError } from '../../../lib/http/errors.js';
import { translate } from '../../../lib/runtime/i18n.js';
import type { ExternalProfile } from '../external-profile.js';
import { everyoneFilter, fillFilter } from './ldap-filter.js';
import {
  BINARY_ATTRIBUTES,
  EXTRA_ATTRIBUTES,
  LDAP_DEFAULT_MAPPING,
  type LdapAttributeMapping,
  profileOf,
} from './ldap-profile.js';

export const DEFAULT_USER_FILTER = '(|(uid={login})(mail={login}))';

/** How the platform reaches a directory, as the administrator configured it (the bind password decrypted). */
export interface LdapDirectoryConfig {
  /** `ldap://host:389` or `ldaps://host:636`. */
  url: string;
  /** The service account that searches; empty binds anonymously. */
  bind_dn?: string;
  bind_password?: string | null;
  user_base: string;
  /** `{login}` stands for what the person typed, escaped before it is put in. */
  user_filter?: string;
  group_base?: string;
  /** `{dn}` stands for the person's entry DN and `{login}` for what they typed, both escaped. */
  group_filter?: string;
  start_tls?: boolean;
}

export interface LdapDirectoryOptions {
  /** Limit on opening the connection and on each LDAP operation. */
  timeoutMs?: number;
  /**
   * Extra TLS settings, for tests (a private CA in `ca`). In production the process's trust
   * store decides: an administrator adds a private CA with NODE_EXTRA_CA_CERTS.
   */
  tls?: ConnectionOptions;
}

export interface LdapTestResult {
  ok: boolean;
  message: string;
  details: { entries_found: number; size_limit_reached?: boolean; step?: LdapStep };
}

export const LDAP_TIMEOUT_MS = 5000;
/** Beyond this many matches the connection test stops counting. */
const TEST_COUNT_LIMIT = 1000;
const GROUP_LIMIT = 1000;
const LOGIN_MAX = 256;

type LdapStep = 'connect' | 'bind' | 'search';

/** A failure of the directory itself (not of the person's credentials), with the step it happened at. */
class DirectoryFailure extends Error {
  constructor(
    readonly step: LdapStep,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

const unavailable = (cause: unknown) => new AppError('DIRECTORY_UNAVAILABLE', {}, undefined, cause);

/**
 * One LDAP directory used for sign-in by search then bind: the service account finds the one
 * entry the login names, then a bind as that entry with the typed password proves it.
 * Every connection is closed before a call returns.
 */
export class LdapDirectory {
  private readonly mapping: LdapAttributeMapping;
  private readonly timeoutMs: number;

  constructor(
    private readonly config: LdapDirectoryConfig,
    mapping: Partial<LdapAttributeMapping> = {},
    private readonly options: LdapDirectoryOptions = {},
  ) {
    this.mapping = { ...LDAP_DEFAULT_MAPPING, ...mapping };
    this.timeoutMs = options.timeoutMs ?? LDAP_TIMEOUT_MS;
  }

  /**
   * The person whose entry the login names, when the password is theirs. A wrong password,
   * a login that names no one and a login that names several people all answer
   * INVALID_CREDENTIALS alike, so logins cannot be discovered by trying; a directory that
   * cannot be reached, or refuses the service account, answers DIRECTORY_UNAVAILABLE.
   */
  async authenticate(login: string, password: string): Promise<ExternalProfile> {
    const typed = login.trim();
    // Refused before any bind: a simple bind with an empty password is an "unauthenticated
    // bind" (RFC 4513), which many servers answer with success.
    if (typed === '' || typed.length > LOGIN_MAX || password === '') throw new AppError('INVALID_CREDENTIALS');

    const service = this.client();
    const user = this.client();
    try {
      await this.openServiceSession(service);
      const entry = await this.findPerson(service, typed);
      await this.bindAs(user, entry.dn, password);
      const groups = await this.findGroups(service, entry.dn, typed);
      return profileOf(entry, groups, this.mapping);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw unavailable(error);
    } finally {
      await Promise.all([close(service), close(user)]);
    }
  }

  /**
   * The administrator's "test connection": the service bind and a search of the user base
   * with the configured filter matching anyone. Never throws; a failure says at which step.
   */
  async test(lang: Language = 'en-US'): Promise<LdapTestResult> {
    const service = this.client();
    try {
      await this.openServiceSession(service);
      const { searchEntries } = await this.search(service, this.config.user_base, {
        filter: everyoneFilter(this.config.user_filter || DEFAULT_USER_FILTER),
        attributes: ['1.1'],
        sizeLimit: TEST_COUNT_LIMIT,
      });
      const found = searchEntries.length;
      return {
        ok: true,
        message: translate(lang, 'server.identity.ldap.testOk', { count: found, base: this.config.user_base }),
        details: { entries_found: found, size_limit_reached: found >= TEST_COUNT_LIMIT },
      };
    } catch (error) {
      const step = error instanceof DirectoryFailure ? error.step : 'connect';
      const reason = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        message: translate(lang, `server.identity.ldap.failed.${step}`, { reason }),
        details: { entries_found: 0, step },
      };
    } finally {
      await close(service);
    }
  }

  private client(): Client {
    return new Client({
      url: this.config.url,
      connectTimeout: this.timeoutMs,
      timeout: this.timeoutMs,
      // ldapts opens TLS from the first byte whenever it is given TLS options, so they go
      // here only for ldaps://; with StartTLS they are given to the upgrade instead.
      tlsOptions: /^ldaps:/i.test(this.config.url) ? this.options.tls : undefined,
    });
  }

  /** Connects (upgrading with StartTLS when configured) and binds as the service account. */
  private async openServiceSession(client: Client): Promise<void> {
    await this.connect(client);
    try {
      // Anonymous when no service account is configured; ldapts binds with an empty DN and password.
      await client.bind(this.config.bind_dn ?? '', this.config.bind_password ?? '');
    } catch (error) {
      throw new DirectoryFailure(error instanceof ResultCodeError ? 'bind' : 'connect', error);
    }
  }

  private async connect(client: Client): Promise<void> {
    if (!this.config.start_tls) return;
    const host = new URL(this.config.url).hostname.replace(/^\[|\]$/g, '');
    try {
      // The TLS handshake itself has no limit in ldapts: the deadline bounds it.
      await withDeadline(
        client.startTLS({ ...this.options.tls, host, ...(isIP(host) ? {} : { servername: host }) }),
        this.timeoutMs,
        () => void close(client),
      );
    } catch (error) {
      throw new DirectoryFailure('connect', error);
    }
  }

  /** The one entry the login names; none or several is a refusal, the same as a wrong password. */
  private async findPerson(client: Client, login: string): Promise<Entry> {
    const { searchEntries } = await this.search(client, this.config.user_base, {
      filter: fillFilter(this.config.user_filter || DEFAULT_USER_FILTER, { login }),
      attributes: ['*', ...EXTRA_ATTRIBUTES, ...BINARY_ATTRIBUTES],
      explicitBufferAttributes: BINARY_ATTRIBUTES,
      // Two are enough to know the login is ambiguous.
      sizeLimit: 2,
    });
    const [entry, another] = searchEntries;
    if (!entry || another) throw new AppError('INVALID_CREDENTIALS');
    return entry;
  }

  /** Proves the password with a bind as the person, on a connection of its own. */
  private async bindAs(client: Client, dn: string, password: string): Promise<void> {
    await this.connect(client);
    try {
      await client.bind(dn, password);
    } catch (error) {
      if (error instanceof InvalidCredentialsError) throw new AppError('INVALID_CREDENTIALS');
      throw new DirectoryFailure(error instanceof ResultCodeError ? 'bind' : 'connect', error);
    }
  }

  /** DNs of the groups the group filter finds for the person, searched as the service account. */
  private async findGroups(client: Client, dn: string, login: string): Promise<string[]> {
    const { group_base: base, group_filter: template } = this.config;
    if (!base || !template) return [];
    const { searchEntries } = await this.search(client, base, {
      filter: fillFilter(template, { dn, login }),
      attributes: ['1.1'],
      sizeLimit: GROUP_LIMIT,
    });
    return searchEntries.map((group) => group.dn);
  }

  private async search(client: Client, base: string, options: Parameters<Client['search']>[1]) {
    try {
      return await client.search(base, { scope: 'sub', ...options });
    } catch (error) {
      throw new DirectoryFailure(error instanceof ResultCodeError ? 'search' : 'connect', error);
    }
  }
}

/** Unbinds and closes; a connection that is already gone is fine. */
async function close(client: Client): Promise<void> {
  try {
    await client.unbind();
  } catch {
    // The socket is destroyed by unbind whether or not the server heard it.
  }
}

async function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new Error(`No answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
