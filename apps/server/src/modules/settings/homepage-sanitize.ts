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
/** Family names, quoted or not, separated by commas: letters, digits, spaces and hyphens only. */
const FONT_FAMILY = /^(("[\w\s-]+"|'[\w\s-]+'|[\w-]+(\s[\w-]+)*)\s*,\s*)*("[\w\s-]+"|'[\w\s-]+'|[\w-]+(\s[\w-]+)*)$/;
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
  allowProtocolRelative: false,
  allowedStyles: { '*': SAFE_STYLES },
  disallowedTagsMode: 'discard',
  transformTags: { a: (tagName, attribs) => ({ tagName, attribs: withLinkTarget(attribs) }) },
  exclusiveFilter: (frame) => frame.tag === 'img' && !isSafeImageSource(frame.attribs.src ?? ''),
};

/**
 * Where a link opens, whatever the author wrote (the page lives in a sandboxed frame, where
 * a link loading in place would show a blank frame): a path on this site moves the whole
 * window; an address elsewhere opens a new tab that gets no handle on this one; mailto
 * hands over to the mail program; a fragment scrolls the page itself.
 */
function withLinkTarget(attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  const { target: _authored, rel: _authoredRel, ...rest } = attribs;
  const href = (attribs.href ?? '').trim();
  if (href === '' || href.startsWith('#')) return rest;
  if (/^https?:/i.test(href)) return { ...rest, target: '_blank', rel: 'noopener noreferrer' };
  // Any other scheme (javascript:, data:, …) loses its href to the allow-list anyway.
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) && !/^mailto:/i.test(href)) return rest;
  return { ...rest, target: '_top' };
}

function isSafeImageSource(src: string): boolean {
  // A path on this site (an uploaded logo) is as safe as an http(s) address.
  return /^https?:\/\//i.test(src) || /^\/(?!\/)/.test(src) || DATA_IMAGE.test(src);
}

export function sanitizeHomepageHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
