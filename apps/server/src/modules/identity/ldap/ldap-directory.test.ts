import { Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../../../test/free-port.js';
import {
  GROUPS,
  GROUPS_DN,
  PEOPLE,
  PEOPLE_DN,
  READER,
  ROOT,
  type Slapd,
  TEAMS_DN,
  slapdMissing,
  startSlapd,
} from '../../../../test/slapd.js';
import { TcpProxy } from '../../../../test/tcp-proxy.js';
import { AppError } from '../../../lib/http/errors.js';
import { type LdapDirectoryConfig, LdapDirectory } from './ldap-directory.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAPPING = { email_claim: 'mail', username_claim: 'uid', name_claim: 'cn' };

/** The error code a sign-in ends with, or 'signed in as <dn>' when it succeeds. */
async function outcome(directory: LdapDirectory, login: string, password: string): Promise<string> {
  try {
    const profile = await directory.authenticate(login, password);
    return `signed in as ${String(profile.claims.dn)}`;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

describe.skipIf(slapdMissing !== undefined)(
  `signing in against an LDAP directory${slapdMissing ? ` (skipped: ${slapdMissing})` : ''}`,
  () => {
    let slapd: Slapd;
    let config: LdapDirectoryConfig;
    let directory: LdapDirectory;

    beforeAll(async () => {
      slapd = await startSlapd({ tls: true });
      config = {
        url: slapd.url,
        bind_dn: READER.dn,
        bind_password: READER.password,
        user_base: PEOPLE_DN,
        group_base: GROUPS_DN,
        group_filter: '(member={dn})',
      };
      directory = new LdapDirectory(config, MAPPING);
    }, 30_000);

    afterAll(async () => {
      await slapd?.stop();
    });

    it('gives the person found by uid, keyed by entryUUID, with the groups that list them', async () => {
      const profile = await directory.authenticate('alice', PEOPLE.alice.password);
      expect(profile).toMatchObject({
        email: PEOPLE.alice.mail,
        emailVerified: true,
        username: 'alice',
        name: 'Alice Archer',
      });
      expect(profile.subject).toMatch(UUID);
      expect(profile.claims.entryUUID).toBe(profile.subject);
      expect(profile.claims.dn).toBe(PEOPLE.alice.dn);
      expect([...profile.groups].sort()).toEqual([GROUPS.admins, GROUPS.engineering].sort());
    });

    it('finds a person by mail too, with only their own groups', async () => {
      const profile = await directory.authenticate(PEOPLE.bob.mail, PEOPLE.bob.password);
      expect(profile.claims.dn).toBe(PEOPLE.bob.dn);
      expect(profile.groups).toEqual([GROUPS.engineering]);
    });

    it('matches a uid holding filter characters literally', async () => {
      const profile = await directory.authenticate(PEOPLE.carol.uid, PEOPLE.carol.password);
      expect(profile.claims.dn).toBe(PEOPLE.carol.dn);
      expect(profile.username).toBe(PEOPLE.carol.uid);
    });

    it('answers a wrong password, an unknown login and an empty password alike', async () => {
      expect(await outcome(directory, 'alice', 'not-her-password')).toBe('INVALID_CREDENTIALS');
      expect(await outcome(directory, 'nobody', PEOPLE.alice.password)).toBe('INVALID_CREDENTIALS');
      // This server accepts a DN with an empty password as an unauthenticated bind.
      expect(await outcome(directory, 'alice', '')).toBe('INVALID_CREDENTIALS');
      expect(await outcome(directory, '', PEOPLE.alice.password)).toBe('INVALID_CREDENTIALS');
    });

    it('never lets a login widen or extend the search', async () => {
      const attempts: [string, string][] = [
        ['*', PEOPLE.alice.password],
        ['alic*', PEOPLE.alice.password],
        ['a*', PEOPLE.alice.password],
        ['car*', PEOPLE.carol.password],
        ['alice)(uid=alice', PEOPLE.alice.password],
        ['admin)(uid=*', PEOPLE.alice.password],
        ['*)(|(uid=*', PEOPLE.bob.password],
        ['bob)(|(uid=bob', PEOPLE.bob.password],
        ['alice\\29', PEOPLE.alice.password],
        ['alice\u0000', PEOPLE.alice.password],
      ];
      for (const [login, password] of attempts) {
        expect([login, await outcome(directory, login, password)]).toEqual([login, 'INVALID_CREDENTIALS']);
      }
    });

    it('refuses a login that names several people, whoever they are', async () => {
      const loose = new LdapDirectory({ ...config, user_filter: '(|(uid={login})(mail=*@example.test))' }, MAPPING);
      for (const person of Object.values(PEOPLE)) {
        expect(await outcome(loose, person.uid, person.password)).toBe('INVALID_CREDENTIALS');
      }
    });

    it('searches anonymously when no service account is set', async () => {
      const anonymous = new LdapDirectory({ ...config, bind_dn: '', bind_password: null }, MAPPING);
      expect(await outcome(anonymous, 'bob', PEOPLE.bob.password)).toBe(`signed in as ${PEOPLE.bob.dn}`);
    });

    it('adds the groups the entry names in memberOf, and never copies a password hash into the claims', async () => {
      const root = new Client({ url: slapd.url });
      await root.bind(ROOT.dn, ROOT.password);
      const auditors = `cn=auditors,${TEAMS_DN}`;
      await root.add(auditors, { objectClass: 'groupOfNames', cn: 'auditors', member: PEOPLE.alice.dn });
      await root.unbind();
      // The root account may read userPassword, unlike the reader.
      const asRoot = new LdapDirectory({ ...config, bind_dn: ROOT.dn, bind_password: ROOT.password }, MAPPING);
      const profile = await asRoot.authenticate('alice', PEOPLE.alice.password);
      expect([...profile.groups].sort()).toEqual([GROUPS.admins, auditors, GROUPS.engineering].sort());
      expect(profile.claims.memberOf).toContain(auditors);
      expect(Object.keys(profile.claims).some((name) => /password/i.test(name))).toBe(false);
      expect(JSON.stringify(profile.claims)).not.toContain(PEOPLE.alice.password);
    });

    it('upgrades with StartTLS when the CA is trusted, and fails cleanly when it is not', async () => {
      const trusted = new LdapDirectory({ ...config, start_tls: true }, MAPPING, { tls: { ca: slapd.caPem } });
      expect(await outcome(trusted, 'alice', PEOPLE.alice.password)).toBe(`signed in as ${PEOPLE.alice.dn}`);
      expect(await trusted.test()).toMatchObject({ ok: true, details: { entries_found: 3 } });

      const untrusted = new LdapDirectory({ ...config, start_tls: true }, MAPPING);
      expect(await outcome(untrusted, 'alice', PEOPLE.alice.password)).toBe('DIRECTORY_UNAVAILABLE');
      expect(await untrusted.test()).toMatchObject({ ok: false, details: { step: 'connect' } });
    });

    it('speaks TLS from the first byte on ldaps://, trusting the given CA only', async () => {
      const ldaps = { ...config, url: slapd.ldapsUrl! };
      const trusted = new LdapDirectory(ldaps, MAPPING, { tls: { ca: slapd.caPem } });
      expect(await outcome(trusted, 'bob', PEOPLE.bob.password)).toBe(`signed in as ${PEOPLE.bob.dn}`);
      const untrusted = new LdapDirectory(ldaps, MAPPING);
      expect(await outcome(untrusted, 'bob', PEOPLE.bob.password)).toBe('DIRECTORY_UNAVAILABLE');
    });

    it('answers DIRECTORY_UNAVAILABLE when the service account is refused, not INVALID_CREDENTIALS', async () => {
      const refused = new LdapDirectory({ ...config, bind_password: 'wrong' }, MAPPING);
      expect(await outcome(refused, 'alice', PEOPLE.alice.password)).toBe('DIRECTORY_UNAVAILABLE');
      const result = await refused.test('zh-CN');
      expect(result).toMatchObject({ ok: false, details: { step: 'bind', entries_found: 0 } });
      expect(result.message).toContain('目录服务拒绝了服务账号');
    });

    it('answers DIRECTORY_UNAVAILABLE when nothing listens, and when the server never answers', async () => {
      const down = new LdapDirectory({ ...config, url: `ldap://127.0.0.1:${await freePort()}` }, MAPPING);
      expect(await outcome(down, 'alice', PEOPLE.alice.password)).toBe('DIRECTORY_UNAVAILABLE');
      expect(await down.test()).toMatchObject({ ok: false, details: { step: 'connect' } });

      const silent = await TcpProxy.start({ host: '127.0.0.1', port: slapd.port });
      silent.swallow();
      try {
        const hung = new LdapDirectory({ ...config, url: `ldap://127.0.0.1:${silent.port}` }, MAPPING, {
          timeoutMs: 300,
        });
        expect(await outcome(hung, 'alice', PEOPLE.alice.password)).toBe('DIRECTORY_UNAVAILABLE');
        const tlsHung = new LdapDirectory(
          { ...config, url: `ldap://127.0.0.1:${silent.port}`, start_tls: true },
          MAPPING,
          { timeoutMs: 300 },
        );
        expect(await outcome(tlsHung, 'alice', PEOPLE.alice.password)).toBe('DIRECTORY_UNAVAILABLE');
      } finally {
        await silent.close();
      }
    });

    it('closes every connection it opens, after a sign-in, a refusal and a test', async () => {
      const relay = await TcpProxy.start({ host: '127.0.0.1', port: slapd.port });
      try {
        const relayed = new LdapDirectory({ ...config, url: `ldap://127.0.0.1:${relay.port}` }, MAPPING);
        await relayed.authenticate('alice', PEOPLE.alice.password);
        expect(await outcome(relayed, 'alice', 'wrong')).toBe('INVALID_CREDENTIALS');
        expect(await outcome(relayed, 'nobody', 'wrong')).toBe('INVALID_CREDENTIALS');
        await relayed.test();
        await vi.waitFor(() => expect(relay.openSockets).toBe(0));
      } finally {
        await relay.close();
      }
    });

    it('tests the connection: the service bind and the people the filter lets in', async () => {
      const result = await directory.test();
      expect(result).toMatchObject({ ok: true, details: { entries_found: 3, size_limit_reached: false } });
      expect(result.message).toContain(PEOPLE_DN);
      const narrow = new LdapDirectory({ ...config, user_filter: '(&(uid={login})(sn=Baker))' }, MAPPING);
      expect(await narrow.test()).toMatchObject({ ok: true, details: { entries_found: 1 } });
      const wrongBase = new LdapDirectory({ ...config, user_base: `ou=nowhere,${PEOPLE_DN}` }, MAPPING);
      expect(await wrongBase.test()).toMatchObject({ ok: false, details: { step: 'search' } });
    });
  },
);
