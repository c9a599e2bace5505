/**
 * The page that hands an AuthnRequest to an IdP offering only the HTTP-POST binding: a form
 * posted by a script allowed through its nonce (the site's policy forbids other inline
 * scripts), with a button for browsers that run none.
 */
export function samlPostFormPage(
  action: string,
  fields: Record<string, string>,
  nonce: string,
  continueLabel: string,
): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return (
    '<!doctype html><html><head><meta charset="utf-8"><title>…</title></head><body>' +
    `<form method="post" action="${escapeHtml(action)}">${inputs}<noscript><button type="submit">${escapeHtml(continueLabel)}</button></noscript></form>` +
    `<script nonce="${escapeHtml(nonce)}">document.forms[0].submit()</script></body></html>`
  );
}

/** The content security policy of that page: its one script, and a form that may only go to the IdP. */
export function samlPostFormPolicy(action: string, nonce: string): string {
  return `default-src 'none'; script-src 'nonce-${nonce}'; form-action ${new URL(action).origin}; base-uri 'none'`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
