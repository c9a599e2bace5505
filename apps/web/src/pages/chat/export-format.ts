import type { Message } from '@aiplatform/contracts';

/** Translated words of the export; the formatter itself stays language-free and testable. */
export interface ExportLabels {
  title: string;
  model: string;
  created: string;
  exported: string;
  messageCount: string;
  user: string;
  assistant: string;
  image: string;
  document: string;
  sources: string;
  /** A citation's page, e.g. `p. 27`. */
  page: (page: number) => string;
  tokens: string;
  stoppedSuffix: string;
}

export type ExportMessage = Pick<
  Message,
  'role' | 'content' | 'created_at' | 'tokens' | 'files' | 'status' | 'citations'
>;

export interface ExportInput {
  title: string;
  model: string;
  createdAt: string;
  exportedAt: Date;
  messages: readonly ExportMessage[];
  labels: ExportLabels;
}

const HEADER_RULE = '='.repeat(50);
const MESSAGE_RULE = '-'.repeat(50);
const FILE_NAME_MAX = 50;

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:mm:ss` in local time; unreadable input is kept as it is. */
export function formatTimestamp(value: Date | string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** `<title>_<YYYYMMDD-HHmmss>.txt`, with characters that file systems refuse replaced. */
export function exportFileName(title: string, date: Date): string {
  const safe = Array.from(title.trim(), (ch) => (ch.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(ch) ? '_' : ch))
    .join('')
    .slice(0, FILE_NAME_MAX);
  const stamp =
    `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-` +
    `${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
  return `${safe || 'chat'}_${stamp}.txt`;
}

function formatMessage(message: ExportMessage, labels: ExportLabels): string {
  const lines = [
    `[${message.role === 'user' ? labels.user : labels.assistant}] ${formatTimestamp(message.created_at)}`,
  ];
  // One line per image or document, in the order sent.
  for (const file of message.files)
    lines.push(`${file.kind === 'document' ? labels.document : labels.image}: ${file.original_name}`);
  const stopped = message.status === 'stopped';
  lines.push(stopped ? [message.content, labels.stoppedSuffix].filter(Boolean).join(' ') : message.content);
  // The passages the answer was given, as it listed them.
  if (message.citations && message.citations.length > 0) {
    lines.push(`${labels.sources}:`);
    for (const c of message.citations) {
      const where = c.page === null ? c.name : `${c.name}, ${labels.page(c.page)}`;
      lines.push(c.snippet ? `- ${where}: ${c.snippet}` : `- ${where}`);
    }
  }
  if (message.role === 'assistant') lines.push(`${labels.tokens}: ${message.tokens}`);
  return lines.join('\n');
}

/**
 * The text export: a header (title, model, created, exported, message count)
 * and then every message with its role, time, attachment names, content, sources and tokens.
 */
export function formatConversationExport({
  title,
  model,
  createdAt,
  exportedAt,
  messages,
  labels,
}: ExportInput): string {
  const header = [
    `${labels.title}: ${title}`,
    `${labels.model}: ${model}`,
    `${labels.created}: ${formatTimestamp(createdAt)}`,
    `${labels.exported}: ${formatTimestamp(exportedAt)}`,
    `${labels.messageCount}: ${messages.length}`,
    HEADER_RULE,
  ].join('\n');
  const body = messages.map((message) => formatMessage(message, labels)).join(`\n\n${MESSAGE_RULE}\n\n`);
  return `${header}\n\n${body}\n`;
}
