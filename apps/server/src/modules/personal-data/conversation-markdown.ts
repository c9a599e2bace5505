import type { Citation, Language } from '@aiplatform/contracts';
import { translate } from '../../lib/runtime/i18n.js';

/** A message as an export holds it (JSON and Markdown alike). */
export interface ExportedMessage {
  id: string;
  parent_id: string | null;
  role: 'user' | 'assistant';
  content: string;
  status: string;
  model_name: string | null;
  tokens: number;
  error_code: string | null;
  created_at: string;
  citations: Citation[];
  files: { id: string; name: string; mime: string; kind: string; size: number; path: string | null }[];
}

export interface ExportedConversation {
  id: string;
  title: string;
  model_name: string;
  system_prompt: string;
  created_at: string;
  updated_at: string;
  messages: ExportedMessage[];
}

const t = (lang: Language, key: string, params: Record<string, string | number> = {}) =>
  translate(lang, `server.export.${key}`, params);

/** Quoted, so a passage's own headings and lists stay inside the quote instead of breaking the transcript's outline. */
const quoteBlock = (text: string) =>
  text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');

function heading(lang: Language, m: ExportedMessage, version: { index: number; of: number }): string {
  const who = m.role === 'user' ? t(lang, 'you') : t(lang, 'assistant', { model: m.model_name ?? '' });
  const versionNote = version.of > 1 ? ` · ${t(lang, 'version', { index: version.index, of: version.of })}` : '';
  return `### ${who} · ${m.created_at}${versionNote}`;
}

function body(lang: Language, m: ExportedMessage): string[] {
  const lines = [m.content === '' ? `_${t(lang, 'empty')}_` : m.content];
  if (m.status !== 'complete' || m.error_code) {
    lines.push('', `_${t(lang, 'status', { status: m.error_code ? `${m.status} (${m.error_code})` : m.status })}_`);
  }
  if (m.files.length > 0) {
    lines.push('', `**${t(lang, 'attachments')}**`);
    for (const f of m.files) lines.push(f.path ? `- [${f.name}](../${encodeURI(f.path)})` : `- ${f.name}`);
  }
  if (m.citations.length > 0) {
    lines.push('', `**${t(lang, 'sources')}**`);
    m.citations.forEach((c, i) => {
      const page = c.page === null ? '' : ` (${t(lang, 'page', { page: c.page })})`;
      lines.push(`${i + 1}. ${c.name}${page}`, '', quoteBlock(c.snippet), '');
    });
  }
  return lines;
}

/**
 * A conversation as a readable Markdown transcript: every message of every branch, each
 * version under the message it follows (depth first, oldest version first), labelled
 * "version i of n" where a question was edited or an answer regenerated.
 */
export function conversationMarkdown(lang: Language, c: ExportedConversation): string {
  const children = new Map<string | null, ExportedMessage[]>();
  const ids = new Set(c.messages.map((m) => m.id));
  for (const m of c.messages) {
    // A parent that is gone (never expected) makes the message a root rather than losing it.
    const parent = m.parent_id !== null && ids.has(m.parent_id) ? m.parent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), m]);
  }
  const out = [
    `# ${c.title}`,
    '',
    `- ${t(lang, 'model')}: ${c.model_name}`,
    `- ${t(lang, 'created')}: ${c.created_at}`,
    `- ${t(lang, 'updated')}: ${c.updated_at}`,
    '',
  ];
  if (c.system_prompt) out.push(`**${t(lang, 'systemPrompt')}**`, '', quoteBlock(c.system_prompt), '');
  // An explicit stack, not recursion: a long conversation is a deep chain of parent links.
  const stack: { m: ExportedMessage; index: number; of: number }[] = [];
  const pushChildren = (parent: string | null) => {
    const list = children.get(parent) ?? [];
    for (let i = list.length - 1; i >= 0; i--) stack.push({ m: list[i]!, index: i + 1, of: list.length });
  };
  pushChildren(null);
  while (stack.length > 0) {
    const { m, index, of } = stack.pop()!;
    out.push(heading(lang, m, { index, of }), '', ...body(lang, m), '');
    pushChildren(m.id);
  }
  return `${out.join('\n').trimEnd()}\n`;
}
