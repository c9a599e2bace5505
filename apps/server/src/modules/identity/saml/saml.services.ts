import type { IdentityServices } from '../identity.services.js';
import { SamlSignInService } from './saml-sign-in.service.js';
import { samlTester } from './saml-tester.js';

/** SAML on top of single sign-on's shared pieces: the sign-in flow, and the connection test registered with the core. */
export function createSamlServices(identity: IdentityServices): SamlSignInService {
  identity.testers.register('saml', samlTester);
  return new SamlSignInService({
    providers: identity.providers,
    states: identity.states,
    signIn: identity.signIn,
    exchange: identity.exchange,
    replayGuard: {
      firstUse: (providerId, assertionId, expiresAt) =>
        identity.tickets.claimAssertion(providerId, assertionId, expiresAt.toISOString()),
    },
  });
}
