import { describe, expect, it } from 'vitest';
import { guidText, profileOf } from './ldap-profile.js';

// Active Directory cannot run here: its entries are reproduced as ldapts hands them over.
const GUID_BYTES = Buffer.from('67452301ab89efcd0123456789abcdef', 'hex');
const AD_MAPPING = { email_claim: 'mail', username_claim: 'sAMAccountName', name_claim: 'displayName' };

describe('an Active Directory entry as a profile', () => {
  it('writes objectGUID the way Active Directory shows it', () => {
    expect(guidText(GUID_BYTES)).toBe('01234567-89ab-cdef-0123-456789abcdef');
  });

  it('is keyed by objectGUID, reads attributes whatever their case, and joins memberOf to the searched groups', () => {
    const entry = {
      dn: 'CN=Dana Doe,OU=Staff,DC=corp,DC=example',
      objectGUID: GUID_BYTES,
      objectSid: Buffer.from('010500000000000515000000', 'hex'),
      sAMAccountName: 'ddoe',
      DisplayName: 'Dana Doe',
      Mail: 'dana@corp.example',
      memberOf: ['CN=Staff,OU=Groups,DC=corp,DC=example', 'CN=Nested,OU=Groups,DC=corp,DC=example'],
      unicodePwd: 'never-readable-but-never-copied',
    };
    const profile = profileOf(entry, ['cn=staff,ou=groups,dc=corp,dc=example'], AD_MAPPING);
    expect(profile).toMatchObject({
      subject: '01234567-89ab-cdef-0123-456789abcdef',
      email: 'dana@corp.example',
      emailVerified: true,
      username: 'ddoe',
      name: 'Dana Doe',
    });
    // The same group named twice in different case counts once.
    expect(profile.groups).toEqual(['cn=staff,ou=groups,dc=corp,dc=example', 'CN=Nested,OU=Groups,DC=corp,DC=example']);
    expect(profile.claims).toMatchObject({ objectGUID: '01234567-89ab-cdef-0123-456789abcdef', dn: entry.dn });
    expect(profile.claims).not.toHaveProperty('unicodePwd');
    expect(profile.claims).not.toHaveProperty('objectSid');
  });

  it('falls back to the DN without a directory identifier, and vouches for no email it lacks', () => {
    const profile = profileOf({ dn: 'uid=x,ou=people,dc=example', uid: 'x', mail: [] }, [], {
      email_claim: 'mail',
      username_claim: 'uid',
      name_claim: 'cn',
    });
    expect(profile).toMatchObject({ subject: 'uid=x,ou=people,dc=example', emailVerified: false, groups: [] });
    expect(profile.email).toBeUndefined();
  });
});
