import { z } from 'zod';
import { LoginResultSchema } from '../auth.js';
import {
  CreateIdentityProviderBodySchema,
  IdentityProviderSchema,
  IdentityProviderTestResultSchema,
  SignInProviderSchema,
  SsoExchangeBodySchema,
  SsoPreviewResultBodySchema,
  SsoPreviewSchema,
  SsoPreviewStartBodySchema,
  SsoPreviewStartSchema,
  UpdateIdentityProviderBodySchema,
} from '../identity.js';
import type { CallSpec } from './spec.js';

/**
 * Single sign-on: the identity providers a super administrator connects, the list the
 * sign-in page offers and the last step of a sign-in through a provider. The redirects of
 * the flow itself (start, callback, SAML ACS and metadata) are plain HTTP routes.
 */
export const IDENTITY_CALLS = {
  listIdentityProviders: {
    method: 'GET',
    path: '/admin/identity-providers',
    access: 'identity.manage',
    response: z.array(IdentityProviderSchema),
  },
  createIdentityProvider: {
    method: 'POST',
    path: '/admin/identity-providers',
    access: 'identity.manage',
    body: CreateIdentityProviderBodySchema,
    response: IdentityProviderSchema,
    status: 201,
  },
  getIdentityProvider: {
    method: 'GET',
    path: '/admin/identity-providers/:id',
    access: 'identity.manage',
    response: IdentityProviderSchema,
  },
  updateIdentityProvider: {
    method: 'PUT',
    path: '/admin/identity-providers/:id',
    access: 'identity.manage',
    body: UpdateIdentityProviderBodySchema,
    response: IdentityProviderSchema,
  },
  deleteIdentityProvider: {
    method: 'DELETE',
    path: '/admin/identity-providers/:id',
    access: 'identity.manage',
    response: z.object({ id: z.number() }),
  },
  /** Reaches the provider with the stored configuration; a failure is a result (`ok: false`), not an error. */
  testIdentityProvider: {
    method: 'POST',
    path: '/admin/identity-providers/:id/test',
    access: 'identity.manage',
    response: IdentityProviderTestResultSchema,
  },
  /**
   * A test sign-in that signs nobody in: OIDC and SAML answer where to send the browser,
   * LDAP (with `login` and `password`) the preview itself.
   */
  previewIdentityProvider: {
    method: 'POST',
    path: '/admin/identity-providers/:id/preview',
    access: 'identity.manage',
    body: SsoPreviewStartBodySchema,
    response: SsoPreviewStartSchema,
  },
  /** The test sign-in's result, for the administrator who started it; the code is good once, for ten minutes. */
  previewIdentityProviderResult: {
    method: 'POST',
    path: '/admin/identity-providers/:id/preview/result',
    access: 'identity.manage',
    body: SsoPreviewResultBodySchema,
    response: SsoPreviewSchema,
  },
  listSignInProviders: {
    method: 'GET',
    path: '/auth/providers',
    access: 'public',
    response: z.array(SignInProviderSchema),
  },
  /** Trades the callback's one-time code (single use, 60 s) for the answer a password sign-in gives. */
  exchangeSsoCode: {
    method: 'POST',
    path: '/auth/sso/exchange',
    access: 'public',
    body: SsoExchangeBodySchema,
    response: LoginResultSchema,
  },
} as const satisfies Record<string, CallSpec>;
