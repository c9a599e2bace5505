import type { IdentityProvider } from '@aiplatform/contracts';
import { describe, expect, it } from 'vitest';
import { formValuesOf, providerAddresses, providerBodyOf } from './provider-form-values';

const base = {
  id: 3,
  slug: 'corp',
  name: 'Corp',
  enabled: true,
  jit: false,
  link_verified_email: true,
  default_group_id: 2,
  mapping: {
    email_claim: 'email',
    username_claim: 'upn',
    name_claim: 'name',
    groups_claim: 'roles',
    required_groups: [],
    group_map: [],
    role_map: [],
  },
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

describe('provider form values', () => {
  it('sends only the chosen protocol, scopes split on spaces, and no secret when the field is left empty', () => {
    const oidc: IdentityProvider = {
      ...base,
      type: 'oidc',
      config: {
        issuer: 'https://idp.example.com',
        client_id: 'app',
        scopes: ['openid', 'email'],
        has_client_secret: true,
      },
    };
    const body = providerBodyOf({ ...formValuesOf(oidc), scopes: ' openid  email groups ' });
    expect(body).toMatchObject({ type: 'oidc', slug: 'corp', jit: false, default_group_id: 2 });
    expect(body.config).toEqual({
      issuer: 'https://idp.example.com',
      client_id: 'app',
      client_secret: undefined,
      scopes: ['openid', 'email', 'groups'],
    });
    expect(providerBodyOf({ ...formValuesOf(oidc), client_secret: 's3cret' }).config).toMatchObject({
      client_secret: 's3cret',
    });
  });

  it('keeps an LDAP bind password out of the edit form and the body unless one is typed', () => {
    const ldap: IdentityProvider = {
      ...base,
      type: 'ldap',
      config: {
        url: 'ldap://dir',
        bind_dn: 'cn=search',
        has_bind_password: true,
        user_base: 'ou=people',
        user_filter: '(uid={login})',
        group_base: '',
        group_filter: '',
        start_tls: true,
      },
    };
    const values = formValuesOf(ldap);
    expect(values.bind_password).toBe('');
    expect(providerBodyOf(values).config).toMatchObject({
      url: 'ldap://dir',
      bind_password: undefined,
      start_tls: true,
    });
  });

  it('names the addresses to register at the provider after the slug', () => {
    expect(providerAddresses('https://chat.example.com', 'entra')).toEqual({
      callback: 'https://chat.example.com/api/auth/sso/entra/callback',
      acs: 'https://chat.example.com/api/auth/sso/entra/acs',
      metadata: 'https://chat.example.com/api/auth/sso/entra/metadata',
    });
  });
});
