import type { IdentityProvider, SsoPreview, SsoPreviewStart } from '@aiplatform/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { reportError } from '../../../components/common/report-error';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { previewFromFragment } from './sso-preview-format';

/** Sends the browser to the provider: a link, or (a SAML IdP taking only HTTP-POST) a form posted at once. */
function goToProvider(start: SsoPreviewStart): void {
  if (start.url) {
    window.location.assign(start.url);
    return;
  }
  if (!start.form) return;
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = start.form.action;
  for (const [name, value] of Object.entries(start.form.fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}

/**
 * The test sign-in of the identity page: `start` sends the browser to an OIDC or SAML
 * provider, whose callback comes back here with `#preview=<code>&provider=<id>`; the code is
 * taken out of the address at once (it is single use) and traded for the preview shown.
 */
export function useSsoPreview() {
  const { t } = useTranslation();
  const [preview, setPreview] = useState<SsoPreview | null>(null);
  const read = useRef(false);

  useEffect(() => {
    // Once: a development double render must not spend the single-use code twice.
    if (read.current) return;
    read.current = true;
    const found = previewFromFragment(window.location.hash);
    if (!found) return;
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    call('previewIdentityProviderResult', { params: { id: found.providerId }, body: { code: found.code } }).then(
      setPreview,
      (error: unknown) => reportError(error, 'admin:identity.preview.resultFailed'),
    );
  }, []);

  const start = useAdminMutation({
    mutationFn: (p: IdentityProvider) => call('previewIdentityProvider', { params: { id: p.id }, body: {} }),
    invalidates: [],
    successText: () => t('admin:identity.preview.started'),
    failureKey: 'admin:identity.preview.startFailed',
    onSuccess: (result) => (result.preview ? setPreview(result.preview) : goToProvider(result)),
  });

  return { preview, show: setPreview, close: () => setPreview(null), start };
}
