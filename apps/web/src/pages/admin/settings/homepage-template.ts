/** Text that goes into HTML as content or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** The words of the default homepage, in the administrator's language. */
export interface HomepageTemplateText {
  title: string;
  intro: string;
  signIn: string;
  register: string;
  features: readonly { title: string; text: string }[];
}

const BUTTON = 'padding: 10px 24px; border-radius: 6px; text-decoration: none; font-weight: 500';

/**
 * A starting point for the custom homepage: a welcome, the ways in and three strengths.
 * Only markup the server keeps on save is used (inline styles from its list, no <style>).
 */
export function defaultHomepageHtml(text: HomepageTemplateText): string {
  const features = text.features
    .map(
      (f) =>
        `    <div style="display: inline-block; width: 220px; margin: 8px; padding: 16px; border: 1px solid #e5e7eb; border-radius: 8px; text-align: left">\n` +
        `      <h3 style="margin: 0 0 8px; font-size: 18px">${escapeHtml(f.title)}</h3>\n` +
        `      <p style="margin: 0; color: #4b5563">${escapeHtml(f.text)}</p>\n` +
        `    </div>`,
    )
    .join('\n');
  return [
    '<div style="max-width: 880px; margin: 0 auto; padding: 48px 16px; text-align: center">',
    `  <h1 style="margin: 0 0 12px; font-size: 36px">${escapeHtml(text.title)}</h1>`,
    `  <p style="margin: 0 0 32px; font-size: 18px; color: #4b5563">${escapeHtml(text.intro)}</p>`,
    '  <p style="display: flex; gap: 12px; justify-content: center; margin: 0 0 48px">',
    `    <a href="/login" target="_blank" style="${BUTTON}; background-color: #0958d9; color: #ffffff">${escapeHtml(text.signIn)}</a>`,
    `    <a href="/register" target="_blank" style="${BUTTON}; border: 1px solid #0958d9; color: #0958d9">${escapeHtml(text.register)}</a>`,
    '  </p>',
    // Inline blocks wrap on narrow screens (the server keeps no flex-wrap).
    '  <div>',
    features,
    '  </div>',
    '</div>',
  ].join('\n');
}

/**
 * The preview document: the same frame the server builds around the saved page, so the
 * preview looks as visitors will see it (the preview shows the text before cleaning).
 */
export function homepagePreviewDocument(html: string, title: string): string {
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{margin:0;padding:16px;font-family:system-ui,sans-serif;line-height:1.6}img{max-width:100%}</style>',
    `</head><body>${html}</body></html>`,
  ].join('\n');
}
