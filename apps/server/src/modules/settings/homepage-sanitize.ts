import sanitizeHtml from 'sanitize-html';

/*
 * The custom homepage is HTML written by an administrator and shown to visitors who are
 * not signed in, so it is cleaned on save to markup that can neither run code nor pose
 * as the application: no scripts, event handlers, frames, objects, forms or <style>
 * elements; links only to http(s), mailto and paths on this site, each opening outside the
 * frame; images only from http(s) or inline data.
 * Inline styles keep only declarations from the list below, whose values cannot load
 * anything (no url()) or lift content out of its place (no position).
 */

const LENGTH = /^-?\d+(\.\d+)?(px|em|rem|%|vh|vw)?$|^auto$|^0$/;
const LENGTHS = /^(-?\d+(\.\d+)?(px|em|rem|%)?|auto)(\s+(-?\d+(\.\d+)?(px|em|rem|%)?|auto)){0,3}$/;
const COLOR = /^(#[0-9a-f]{3,8}|[a-z]{3,20}|rgba?\(\s*[\d.\s,%]+\)|hsla?\(\s*[\d.\s,%deg]+\))$/i;
const BORDER =
  /^(\d+(\.\d+)?(px|em|rem)?\s+)?(none|solid|dashed|dotted|double)(\s+(#[0-9a-f]{3,8}|[a-z]{3,20}|rgba?\([\d.\s,%]+\)))?$/i;
/*
 * Family names, quoted or not, separated by commas: letters and digits of any script (a
 * zh-CN page names "微软雅黑" or "PingFang SC"), spaces, hyphens and underscores. Anything
 * that could start a function (url(), expression()), an escape (a backslash), another
 * declaration or rule (; { }) or markup (< >) does not match, so the declaration is dropped.
 */
const FAMILY_CHARS = String.raw`[\p{L}\p{M}\p{N}_-]`;
const QUOTED_FAMILY = String.raw`"[\p{L}\p{M}\p{N}_\s-]+"|'[\p{L}\p{M}\p{N}_\s-]+'`;
const FAMILY = String.raw`(${QUOTED_FAMILY}|${FAMILY_CHARS}+(\s+${FAMILY_CHARS}+)*)`;
const FONT_FAMILY = new RegExp(String.raw`^${FAMILY}(\s*,\s*${FAMILY})*$`, 'u');
const KEYWORD = (...words: string[]) => new RegExp(`^(${words.join('|')})$`, 'i');

const SAFE_STYLES: Record<string, RegExp[]> = {
  color: [COLOR],
  'background-color': [COLOR],
  'text-align': [KEYWORD('left', 'right', 'center', 'justify', 'start', 'end')],
  'font-size': [LENGTH, KEYWORD('small', 'medium', 'large', 'x-large', 'xx-large', 'smaller', 'larger')],
  'font-weight': [KEYWORD('normal', 'bold', 'bolder', 'lighter', '[1-9]00')],
  'font-style': [KEYWORD('normal', 'italic')],
  'text-decoration': [KEYWORD('none', 'underline', 'line-through')],
  'line-height': [LENGTH, /^\d+(\.\d+)?$/],
  margin: [LENGTHS],
  'margin-top': [LENGTH],
  'margin-bottom': [LENGTH],
  'margin-left': [LENGTH],
  'margin-right': [LENGTH],
  padding: [LENGTHS],
  'padding-top': [LENGTH],
  'padding-bottom': [LENGTH],
  'padding-left': [LENGTH],
  'padding-right': [LENGTH],
  width: [LENGTH],
  height: [LENGTH],
  'max-width': [LENGTH],
  border: [BORDER],
  'border-radius': [LENGTHS],
  'min-width': [LENGTH],
  'min-height': [LENGTH],
  'max-height': [LENGTH],
  'border-top': [BORDER],
  'border-bottom': [BORDER],
  'border-color': [COLOR],
  'letter-spacing': [LENGTH, KEYWORD('normal')],
  'text-transform': [KEYWORD('none', 'uppercase', 'lowercase', 'capitalize')],
  'vertical-align': [KEYWORD('baseline', 'top', 'middle', 'bottom', 'text-top', 'text-bottom')],
  'list-style-type': [KEYWORD('none', 'disc', 'circle', 'square', 'decimal')],
  'font-family': [FONT_FAMILY],
  display: [KEYWORD('block', 'inline', 'inline-block', 'flex', 'none')],
  'flex-wrap': [KEYWORD('wrap', 'nowrap')],
  gap: [LENGTH],
  'flex-direction': [KEYWORD('row', 'column')],
  'justify-content': [KEYWORD('flex-start', 'flex-end', 'center', 'space-between', 'space-around')],
  'align-items': [KEYWORD('flex-start', 'flex-end', 'center', 'stretch')],
};

/** Inline images only in the raster formats a browser shows without running anything. */
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/=\s]+$/i;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img'],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    '*': ['style', 'title', 'lang', 'dir'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  // A link to "//host" is kept as a link to another site (see withLinkTarget).
  allowProtocolRelative: true,
  allowedStyles: { '*': SAFE_STYLES },
  disallowedTagsMode: 'discard',
  transformTags: { a: (tagName, attribs) => ({ tagName, attribs: withLinkTarget(attribs) }) },
  exclusiveFilter: (frame) => frame.tag === 'img' && !isSafeImageSource(frame.attribs.src ?? ''),
};

/*
 * Browsers skip tabs and line breaks inside an address and spaces around it, and the
 * allow-list judges an address with every such character removed, so the kind of an
 * address is judged the same way: "/\t/host" names another site, like "//host".
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
const IGNORED_IN_ADDRESS = /[\x00-\x20]+/g;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

type AddressKind = 'fragment' | 'site-path' | 'web' | 'mail' | 'other-scheme' | 'relative';

function addressKind(address: string): AddressKind {
  const href = address.replace(IGNORED_IN_ADDRESS, '');
  if (href.startsWith('#')) return 'fragment';
  // Two leading slashes keep the page's scheme and name another host; a browser reads a
  // backslash as a slash there ("\\host", "/\host").
  if (/^[/\\]{2}/.test(href) || /^https?:/i.test(href)) return 'web';
  if (href.startsWith('/')) return 'site-path';
  if (/^mailto:/i.test(href)) return 'mail';
  if (SCHEME.test(href)) return 'other-scheme';
  return 'relative';
}

/**
 * Where a link opens, whatever the author wrote (the page lives in a sandboxed frame, where
 * a link loading in place would show a blank frame): a path on this site moves the whole
 * window; an address elsewhere, "//host" included, opens a new tab that gets no handle on
 * this one; mailto hands over to the mail program; a fragment scrolls the page itself.
 * A relative address ("about", "../x", "?q", "") would resolve against the frame's own
 * document under /api/public/ and take the whole window to a page that does not exist.
 * Guessing what the author meant could as well send visitors somewhere unintended, so
 * such a link loses its href and stays text; paths on this site are written from the root.
 */
function withLinkTarget(attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  const { target: _authored, rel: _authoredRel, href, ...rest } = attribs;
  if (href === undefined) return rest;
  switch (addressKind(href)) {
    case 'fragment':
      return { ...rest, href };
    case 'site-path':
    case 'mail':
      return { ...rest, href, target: '_top' };
    case 'web':
      return { ...rest, href, target: '_blank', rel: 'noopener noreferrer' };
    case 'other-scheme': // javascript:, data:, … would lose their href to the allow-list anyway
    case 'relative':
      return rest;
  }
}

function isSafeImageSource(src: string): boolean {
  // A path on this site (an uploaded logo) is as safe as an http(s) address; an image
  // from "//host" is left out, as before: an image needs its scheme written.
  return /^https?:\/\//i.test(src.trim()) || addressKind(src) === 'site-path' || DATA_IMAGE.test(src);
}

export function sanitizeHomepageHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
