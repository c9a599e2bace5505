import { XMLParser } from 'fast-xml-parser';
import { officeContainer } from './detect-format.js';
import { ExtractError, unreadable } from './extract-error.js';
import { type ExtractedText, tidy } from './extracted.js';
import { openZip } from './zip-guard.js';

/** Deeper than any slide: a file nested further is built to exhaust the reader. */
const MAX_DEPTH = 256;

type Node = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // The XML's own entities and character references only: a file declaring more never gets here (zip-guard).
  processEntities: true,
  parseTagValue: false,
  trimValues: false,
});

function parseXml(data: Uint8Array | undefined, name: string): Node[] {
  if (!data) throw unreadable(`missing ${name}`);
  try {
    return parser.parse(Buffer.from(data).toString('utf8')) as Node[];
  } catch (err) {
    throw unreadable(`${name}: ${(err as Error).message}`);
  }
}

/** Each element of an ordered tree: its tag name, attributes and children, depth first. */
function walk(nodes: Node[], visit: (tag: string, attrs: Node, children: Node[]) => void, depth = 0): void {
  if (depth > MAX_DEPTH) throw unreadable('XML nested too deeply');
  for (const node of nodes) {
    for (const [tag, value] of Object.entries(node)) {
      if (tag === ':@' || tag === '#text' || !Array.isArray(value)) continue;
      visit(tag, (node[':@'] as Node | undefined) ?? {}, value as Node[]);
      walk(value as Node[], visit, depth + 1);
    }
  }
}

/** The slide parts in the order the presentation shows them. */
function slideOrder(parts: Map<string, Uint8Array>): string[] {
  const targets = new Map<string, string>();
  walk(parseXml(parts.get('ppt/_rels/presentation.xml.rels'), 'presentation relationships'), (tag, a) => {
    if (tag === 'Relationship' && typeof a.Id === 'string' && typeof a.Target === 'string')
      targets.set(a.Id, `ppt/${a.Target.replace(/^\/?(ppt\/)?/, '')}`);
  });
  const order: string[] = [];
  walk(parseXml(parts.get('ppt/presentation.xml'), 'presentation'), (tag, a) => {
    const target = tag === 'p:sldId' && typeof a['r:id'] === 'string' ? targets.get(a['r:id']) : undefined;
    if (target) order.push(target);
  });
  return order;
}

/** A slide's text: each paragraph of each shape on its own line. */
function slideText(nodes: Node[]): string {
  const lines: string[] = [];
  let line = '';
  const textOf = (children: Node[]) => children.map((c) => (typeof c['#text'] === 'string' ? c['#text'] : '')).join('');
  walk(nodes, (tag, _a, children) => {
    if (tag === 'a:p') {
      if (line) lines.push(line);
      line = '';
    } else if (tag === 'a:t') line += textOf(children);
    else if (tag === 'a:br') line += '\n';
  });
  if (line) lines.push(line);
  return tidy(lines.join('\n'));
}

/** A PowerPoint deck's text, one page per slide in the order shown. */
export function readPptx(buf: Uint8Array): ExtractedText {
  const container = officeContainer(buf);
  if (container === 'ole') throw new ExtractError('FILE_ENCRYPTED', 'Office file in a protected container');
  if (container !== 'zip') throw unreadable('not a PowerPoint deck');
  const parts = openZip(buf, (name) => name.startsWith('ppt/') && /\.(xml|rels)$/.test(name));
  const order = slideOrder(parts);
  if (order.length === 0) throw unreadable('deck without slides');
  const pages = order.map((name, i) => ({ page: i + 1, text: slideText(parseXml(parts.get(name), name)) }));
  return { pages, paged: true };
}
