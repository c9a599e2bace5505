import { inflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/http/errors.js';
import { encodeResponse, makeSigningKey, TestSamlIdp, type AssertionOptions } from '../../../../test/saml-idp.js';
import { type AssertionReplayGuard, MemoryAssertionReplayGuard } from './assertion-replay-guard.js';
import { parseIdpMetadata } from './idp-metadata.js';
import { newSamlRequestId, SamlServiceProvider } from './saml-sp.js';

const SP_ENTITY_ID = 'https://chat.example.test/saml';
const ACS_URL = 'https://chat.example.test/api/auth/sso/corp/acs';
const MAPPING = { email_claim: 'email', username_claim: 'uid', name_claim: 'displayName', groups_claim: 'groups' };

let idp: TestSamlIdp;
beforeAll(() => {
  idp = new TestSamlIdp();
});

function makeSp(guard: AssertionReplayGuard = new MemoryAssertionReplayGuard()) {
  return new SamlServiceProvider(
    {
      providerId: 7,
      idp: parseIdpMetadata(idp.metadataXml()),
      spEntityId: SP_ENTITY_ID,
      acsUrl: ACS_URL,
      mapping: MAPPING,
    },
    guard,
  );
}

/** A started flow: the SP issued an AuthnRequest; the IdP answers it with `overrides`. */
async function startedFlow(sp = makeSp()) {
  const requestId = newSamlRequestId();
  await sp.startLogin('state-1', requestId);
  const answer = (overrides: Partial<AssertionOptions> = {}): AssertionOptions => ({
    inResponseTo: requestId,
    audience: SP_ENTITY_ID,
    recipient: ACS_URL,
    nameId: 'alice-0001',
    attributes: { email: 'alice@corp.test', uid: 'alice', displayName: 'Alice Liddell', groups: ['staff', 'eng'] },
    ...overrides,
  });
  return { sp, requestId, answer };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
  throw new Error('accepted');
}

describe('SAML service provider: the login request and SP metadata', () => {
  it('sends the browser to the IdP with an AuthnRequest naming this SP and its ACS', async () => {
    const requestId = newSamlRequestId();
    const start = await makeSp().startLogin('state-1', requestId);
    expect(start.kind).toBe('redirect');
    if (start.kind !== 'redirect') return;
    const url = new URL(start.url);
    expect(url.origin + url.pathname).toBe(idp.ssoUrl);
    expect(url.searchParams.get('RelayState')).toBe('state-1');
    const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString();
    expect(request).toContain(`ID="${requestId}"`);
    expect(request).toContain(`AssertionConsumerServiceURL="${ACS_URL}"`);
    expect(request).toContain(`>${SP_ENTITY_ID}</saml:Issuer>`);
  });

  it('posts the AuthnRequest through a form when the IdP offers only HTTP-POST', async () => {
    const sp = new SamlServiceProvider(
      {
        providerId: 7,
        idp: parseIdpMetadata(idp.metadataXml({ binding: 'post' })),
        spEntityId: SP_ENTITY_ID,
        acsUrl: ACS_URL,
        mapping: MAPPING,
      },
      new MemoryAssertionReplayGuard(),
    );
    const requestId = newSamlRequestId();
    const start = await sp.startLogin('state-2', requestId);
    expect(start.kind).toBe('form');
    if (start.kind !== 'form') return;
    expect(start.action).toBe(idp.ssoUrl);
    expect(start.fields.RelayState).toBe('state-2');
    expect(Buffer.from(start.fields.SAMLRequest ?? '', 'base64').toString()).toContain(`ID="${requestId}"`);
  });

  it('publishes SP metadata with the ACS and signed assertions required', () => {
    const xml = makeSp().metadataXml();
    expect(xml).toContain(`entityID="${SP_ENTITY_ID}"`);
    expect(xml).toContain(`Location="${ACS_URL}"`);
    expect(xml).toContain('WantAssertionsSigned="true"');
  });
});

describe('SAML service provider: checking a Response', () => {
  it('signs in with the signed assertion: NameID as subject, mapped attributes and groups', async () => {
    const { sp, requestId, answer } = await startedFlow();
    const { profile } = await sp.signIn(idp.response(answer()), requestId);
    expect(profile).toMatchObject({
      subject: 'alice-0001',
      email: 'alice@corp.test',
      emailVerified: true,
      username: 'alice',
      name: 'Alice Liddell',
      groups: ['staff', 'eng'],
    });
    expect(profile.claims).toMatchObject({ issuer: idp.entityId, attributes: { uid: 'alice' } });
  });

  it('marks no email verified when the assertion carries none', async () => {
    const { sp, requestId, answer } = await startedFlow();
    const { profile } = await sp.signIn(idp.response(answer({ attributes: { uid: 'alice' } })), requestId);
    expect(profile).toMatchObject({ email: undefined, emailVerified: false, groups: [] });
  });

  it('refuses an unsigned assertion', async () => {
    const { sp, requestId, answer } = await startedFlow();
    expect(await refusal(sp.signIn(idp.response(answer({ sign: false })), requestId))).toBe('SAML_RESPONSE_INVALID');
  });

  it('refuses an unsigned assertion even inside a signed Response', async () => {
    const { sp, requestId, answer } = await startedFlow();
    const signedEnvelope = idp.signResponse(
      idp.responseXml(requestId, ACS_URL, [idp.assertionXml(answer({ sign: false }))]),
    );
    expect(await refusal(sp.signIn(encodeResponse(signedEnvelope), requestId))).toBe('SAML_RESPONSE_INVALID');
    // The same envelope around a signed assertion is accepted: the refusal above is about the assertion.
    const both = idp.signResponse(idp.responseXml(requestId, ACS_URL, [idp.assertionXml(answer())]));
    expect((await sp.signIn(encodeResponse(both), requestId)).profile.subject).toBe('alice-0001');
  });

  it('refuses an assertion signed by a key the metadata does not name', async () => {
    const { sp, requestId, answer } = await startedFlow();
    const other = makeSigningKey('impostor');
    expect(await refusal(sp.signIn(idp.response(answer({ signWith: other })), requestId))).toBe(
      'SAML_RESPONSE_INVALID',
    );
  });

  it('refuses an assertion meant for another audience', async () => {
    const { sp, requestId, answer } = await startedFlow();
    const xml = idp.response(answer({ audience: 'https://other-sp.test/saml' }));
    expect(await refusal(sp.signIn(xml, requestId))).toBe('SAML_RESPONSE_INVALID');
  });

  it('refuses an assertion sent to another ACS', async () => {
    const { sp, requestId, answer } = await startedFlow();
    const xml = idp.response(answer({ recipient: 'https://other-sp.test/acs' }));
    expect(await refusal(sp.signIn(xml, requestId))).toBe('SAML_RESPONSE_INVALID');
  });

  it('refuses an expired assertion and one not valid yet (beyond the clock skew)', async () => {
    const { sp, requestId, answer } = await startedFlow();
    const hour = 3_600_000;
    const expired = answer({ notBefore: new Date(Date.now() - 2 * hour), notOnOrAfter: new Date(Date.now() - hour) });
    expect(await refusal(sp.signIn(idp.response(expired), requestId))).toBe('SAML_RESPONSE_INVALID');
    const early = answer({ notBefore: new Date(Date.now() + hour), notOnOrAfter: new Date(Date.now() + 2 * hour) });
    expect(await refusal(sp.signIn(idp.response(early), requestId))).toBe('SAML_RESPONSE_INVALID');
  });

  it('refuses a Response to another AuthnRequest, and an unsolicited one', async () => {
    const { sp, requestId, answer } = await startedFlow();
    const other = idp.response(answer({ inResponseTo: '_someone-elses-request' }));
    expect(await refusal(sp.signIn(other, requestId))).toBe('SAML_RESPONSE_INVALID');
    const unsolicited = idp.assertionXml(answer());
    const withoutInResponseTo = idp.responseXml(requestId, ACS_URL, [unsolicited]).replace(/ InResponseTo="[^"]*"/, '');
    expect(await refusal(sp.signIn(encodeResponse(withoutInResponseTo), requestId))).toBe('SAML_RESPONSE_INVALID');
  });

  it('refuses an assertion from another issuer, and a transient NameID', async () => {
    const { sp, requestId, answer } = await startedFlow();
    const issuer = idp.response(answer({ issuer: 'https://other-idp.test' }));
    expect(await refusal(sp.signIn(issuer, requestId))).toBe('SAML_RESPONSE_INVALID');
    const transient = idp.response(answer({ nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient' }));
    expect(await refusal(sp.signIn(transient, requestId))).toBe('SAML_RESPONSE_INVALID');
  });

  it('accepts an assertion once: the same Response posted again is a replay', async () => {
    const { sp, requestId, answer } = await startedFlow();
    const response = idp.response(answer());
    await sp.signIn(response, requestId);
    expect(await refusal(sp.signIn(response, requestId))).toBe('SAML_ASSERTION_REPLAYED');
  });

  it('refuses the replay on another instance sharing the guard', async () => {
    const guard = new MemoryAssertionReplayGuard();
    const { sp, requestId, answer } = await startedFlow(makeSp(guard));
    const response = idp.response(answer());
    await sp.signIn(response, requestId);
    // Another instance's object, same guard (the shared table in production).
    expect(await refusal(makeSp(guard).signIn(response, requestId))).toBe('SAML_ASSERTION_REPLAYED');
  });

  it('refuses an attribute changed after signing', async () => {
    const { sp, requestId, answer } = await startedFlow();
    const xml = idp.responseXml(requestId, ACS_URL, [idp.assertionXml(answer())]);
    const tampered = xml.replace('>staff<', '>administrators<');
    expect(tampered).not.toBe(xml);
    expect(await refusal(sp.signIn(encodeResponse(tampered), requestId))).toBe('SAML_RESPONSE_INVALID');
  });

  it('never signs in as an unsigned assertion placed beside the signed one', async () => {
    const { sp, requestId, answer } = await startedFlow();
    const signed = idp.assertionXml(answer({ nameId: 'alice-0001' }));
    const forged = idp.assertionXml(answer({ nameId: 'root-admin', sign: false }));
    for (const order of [
      [forged, signed],
      [signed, forged],
    ]) {
      const xml = encodeResponse(idp.responseXml(requestId, ACS_URL, order));
      expect(await refusal(sp.signIn(xml, requestId))).toBe('SAML_RESPONSE_INVALID');
    }
  });

  it('never signs in as an assertion wrapped inside the signed one', async () => {
    const { sp, requestId, answer } = await startedFlow();
    const signed = idp.assertionXml(answer({ nameId: 'alice-0001' }));
    const forged = idp.assertionXml(answer({ nameId: 'root-admin', sign: false }));
    // The forged assertion takes the signed one's place; the signed one hides in an extension.
    const wrapped = forged.replace('</saml:Issuer>', `</saml:Issuer><saml:Advice>${signed}</saml:Advice>`);
    const xml = encodeResponse(idp.responseXml(requestId, ACS_URL, [wrapped]));
    expect(await refusal(sp.signIn(xml, requestId))).toBe('SAML_RESPONSE_INVALID');
  });
});
