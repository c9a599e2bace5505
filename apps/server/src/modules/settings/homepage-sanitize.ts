import sanitizeHtml from 'sanitize-html';

/*
 * The custom homepage is HTML written by an administrator and shown to visitors who are
 * not signed in, so it is cleaned on save to markup that can neither run code nor pose
 * as the application: no scripts, event handlers, frames, objects, forms or <style>
 * elements; links only to http(s) and mailto; images only from http(s) or inline data.
 * Inline styles keep only declarations from the list below, whose values cannot load
 * anything (no url()) or lift content out of its place (no position).
 */

const LENGTH = /^-?\d+(\.\d+)?(px|em|rem|%|vh|vw)?$|^auto$|^0$/;
const LENGTHS = /^(-?\d+(\.\d+)?(px|em|rem|%)?|auto)(\s+(-?\d+(\.\d+)?(px|em|rem|%)?|auto)){0,3}$/;
const COLOR = /^(#[0-9a-f]{3,8}|[a-z]{3,20}|rgba?\(\s*[\d.\s,%]+\)|hsla?\(\s*[\d.\s,%deg]+\))$/i;
const BORDER =
  /^(\d+(\.\d+)?(px|em|rem)?\s+)?(none|solid|dashed|dotted|double)(\s+(#[0-9a-f]{3,8}|[a-z]{3,20}|rgba?\([\d.\s,%]+\)))?$/i;
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
  display: [KEYWORD('block', 'inline', 'inline-block', 'flex', 'none')],
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
  transformTags: {
    // A link that opens a new tab must not hand the new page a handle on this one.
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.target ? { ...attribs, target: '_blank', rel: 'noopener noreferrer' } : attribs,
    }),
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !isSafeImageSource(frame.attribs.src ?? ''),
};

function isSafeImageSource(src: string): boolean {
  // A path on this site (an uploaded logo) is as safe as an http(s) address.
  return /^https?:\/\//i.test(src) || /^\/(?!\/)/.test(src) || DATA_IMAGE.test(src);
}

export function sanitizeHomepageHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
