import { translate } from '../../../lib/runtime/i18n.js';
import { AppError } from '../../../lib/http/errors.js';
import type { ProviderTester } from '../provider-testers.js';
import { parseIdpMetadata } from './idp-metadata.js';

/** The administrator's test of a SAML provider: the stored metadata parses and names signing certificates. */
export const samlTester: ProviderTester<'saml'> = (provider, lang) => {
  try {
    const idp = parseIdpMetadata(provider.config.idp_metadata_xml);
    return Promise.resolve({
      ok: true,
      message: translate(lang, 'server.identity.saml.testOk', {
        entityId: idp.entityId,
        count: idp.signingCerts.length,
      }),
      details: {
        entity_id: idp.entityId,
        sso_url: idp.ssoUrl,
        sso_binding: idp.ssoBinding,
        signing_certificates: idp.signingCerts.length,
        certificates_valid_until: idp.certsValidUntil.toISOString(),
      },
    });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return Promise.resolve({
      ok: false,
      message: translate(lang, `errors.${err.code}`, err.params),
      details: { code: err.code },
    });
  }
};
