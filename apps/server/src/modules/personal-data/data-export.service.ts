import fs from 'node:fs';
import path from 'node:path';
import { DATA_EXPORT_ENTRIES, type Language } from '@aiplatform/contracts';
import type { ConversationRow, FileRow } from '../../db/types.js';
import { csvStream } from '../../lib/http/csv-stream.js';
import { notFound } from '../../lib/http/errors.js';
import type { ZipEntry } from '../../lib/http/zip-stream.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { AVATAR_URL_PREFIX } from '../auth/avatar.repo.js';
import { parseCitations } from '../chat/chat.presenter.js';
import { ledgerDescription } from '../credits/ledger.presenter.js';
import { type ExportedConversation, type ExportedMessage, conversationMarkdown } from './conversation-markdown.js';
import { type DataExportRepo, LEDGER_COLUMNS } from './data-export.repo.js';

export interface DataExportDeps {
  repo: DataExportRepo;
  /** Where chat images and documents are stored (DATA_DIR/uploads). */
  uploadsDir: string;
  /** Where avatars are stored (DATA_DIR/avatars). */
  avatarsDir: string;
  clock: Clock;
}

export interface ExportOptions {
  /** The language of the Markdown transcripts and the ledger's descriptions. */
  lang: Language;
  /**
   * Conversations a held person deleted (hidden from them, kept for the hold): in a super
   * administrator's export, not in the person's own, as they are gone for them.
   */
  includeHidden: boolean;
}

// eslint-disable-next-line no-control-regex -- control characters are what is removed
const UNSAFE_NAME = /[\u0000-\u001f\u007f/\\:*?"<>|]/g;

/** A file's place in the archive: its id keeps names unique, its own name (made safe) keeps it recognisable. */
export function fileEntryName(file: Pick<FileRow, 'id' | 'original_name'>): string {
  const name = file.original_name.replace(UNSAFE_NAME, '_').slice(-120) || 'file';
  return `${DATA_EXPORT_ENTRIES.files}${file.id}-${name}`;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Whether a stored file can be read; a file gone from disk is left out rather than failing the export. */
async function readable(full: string): Promise<boolean> {
  try {
    await fs.promises.access(full, fs.constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A person's data as the entries of a ZIP: profile.json, every conversation as JSON and as
 * Markdown, ledger.csv, their share links, personal prompt templates and knowledge bases,
 * and their uploaded files. Only rows of this person are read (see DataExportRepo).
 */
export class DataExportService {
  constructor(private readonly d: DataExportDeps) {}

  /** Throws NOT_FOUND for an unknown account: checked before the first byte is sent. */
  async assertExists(userId: number): Promise<void> {
    if (!(await this.d.repo.profile(userId))) throw notFound();
  }

  async *entries(userId: number, opts: ExportOptions): AsyncGenerator<ZipEntry> {
    const modified = this.d.clock.now();
    const profile = await this.d.repo.profile(userId);
    if (!profile) throw notFound();
    const [identities, sessions, apiKeys] = await Promise.all([
      this.d.repo.identities(userId),
      this.d.repo.sessions(userId),
      this.d.repo.apiKeys(userId),
    ]);
    const profileJson = {
      exported_at: modified.toISOString(),
      user: profile,
      sign_in_identities: identities,
      sessions,
      api_keys: apiKeys.map((k) => ({
        ...k,
        models: JSON.parse(k.models) as unknown,
        ip_allow: JSON.parse(k.ip_allow) as unknown,
      })),
    };
    yield { name: DATA_EXPORT_ENTRIES.profile, data: json(profileJson), compress: true, modified };

    for await (const c of this.d.repo.conversations(userId)) {
      if (!opts.includeHidden && c.hidden_at !== null) continue;
      const exported = await this.conversation(c, userId);
      const base = `${DATA_EXPORT_ENTRIES.conversations}${c.id}`;
      yield { name: `${base}.json`, data: json(exported), compress: true, modified };
      yield { name: `${base}.md`, data: conversationMarkdown(opts.lang, exported), compress: true, modified };
    }

    yield { name: DATA_EXPORT_ENTRIES.ledger, data: this.ledgerCsv(userId, opts.lang), compress: true, modified };
    yield { name: DATA_EXPORT_ENTRIES.shareLinks, data: json(await this.shareLinks(userId)), compress: true, modified };
    yield {
      name: DATA_EXPORT_ENTRIES.promptTemplates,
      data: json(await this.promptTemplates(userId)),
      compress: true,
      modified,
    };
    yield {
      name: DATA_EXPORT_ENTRIES.knowledgeBases,
      data: json(await this.knowledgeBases(userId)),
      compress: true,
      modified,
    };

    for await (const file of this.d.repo.files(userId, opts.includeHidden)) {
      const full = path.join(this.d.uploadsDir, path.basename(file.stored_name));
      if (!(await readable(full))) continue;
      yield { name: fileEntryName(file), data: fs.createReadStream(full), compress: false, modified };
    }
    if (profile.avatar_url?.startsWith(AVATAR_URL_PREFIX)) {
      const name = path.basename(profile.avatar_url);
      const full = path.join(this.d.avatarsDir, name);
      if (await readable(full)) {
        yield {
          name: `${DATA_EXPORT_ENTRIES.files}avatar${path.extname(name)}`,
          data: fs.createReadStream(full),
          compress: false,
          modified,
        };
      }
    }
  }

  private async conversation(
    c: ConversationRow,
    userId: number,
  ): Promise<ExportedConversation & Record<string, unknown>> {
    const [messages, files, knowledgeBaseIds, draft] = await Promise.all([
      this.d.repo.messages(c.id),
      this.d.repo.messageFiles(c.id),
      this.d.repo.knowledgeBaseIds(c.id),
      this.d.repo.draft(c.id),
    ]);
    const filesOf = new Map<string, ExportedMessage['files']>();
    for (const f of files) {
      const entry = {
        id: f.id,
        name: f.original_name,
        mime: f.mime,
        kind: f.kind,
        size: f.size,
        // Only the person's own files are in the archive.
        path: f.user_id === userId ? fileEntryName(f) : null,
      };
      filesOf.set(f.message_id, [...(filesOf.get(f.message_id) ?? []), entry]);
    }
    return {
      id: c.id,
      title: c.title,
      model_name: c.model_name,
      system_prompt: c.system_prompt,
      is_pinned: c.is_pinned === 1,
      priority: c.priority,
      context_length: c.context_length,
      ai_temperature: c.ai_temperature,
      message_count: c.message_count,
      total_tokens: c.total_tokens,
      active_message_id: c.active_message_id,
      created_at: c.created_at,
      updated_at: c.updated_at,
      last_message_at: c.last_message_at,
      hidden_at: c.hidden_at,
      knowledge_base_ids: knowledgeBaseIds,
      draft: draft ?? null,
      messages: messages.map((m) => ({
        id: m.id,
        parent_id: m.parent_id,
        role: m.role,
        content: m.content,
        status: m.status,
        model_name: m.model_name,
        tokens: m.tokens,
        error_code: m.error_code,
        created_at: m.created_at,
        citations: parseCitations(m.citations),
        files: filesOf.get(m.id) ?? [],
      })),
    };
  }

  private ledgerCsv(userId: number, lang: Language) {
    const rows = this.d.repo.ledger(userId);
    return csvStream(
      LEDGER_COLUMNS,
      (async function* () {
        for await (const r of rows) yield { ...r, description: ledgerDescription(lang, r.description, r.model_name) };
      })(),
    );
  }

  private async shareLinks(userId: number) {
    return (await this.d.repo.shareLinks(userId)).map((s) => ({
      ...s,
      is_public: s.is_public === 1,
      snapshot: JSON.parse(s.snapshot) as unknown,
    }));
  }

  private async promptTemplates(userId: number) {
    const templates = await this.d.repo.promptTemplates(userId);
    const versions = await this.d.repo.promptVersions(templates.map((p) => p.id));
    return templates.map((p) => ({
      ...p,
      earlier_versions: versions.filter((v) => v.template_id === p.id).map(({ template_id: _template, ...v }) => v),
    }));
  }

  private async knowledgeBases(userId: number) {
    const bases = await this.d.repo.knowledgeBases(userId);
    const documents = await this.d.repo.knowledgeDocuments(bases.map((b) => b.id));
    return bases.map((b) => ({
      ...b,
      documents: documents
        .filter((d) => d.knowledge_base_id === b.id)
        .map((d) => ({
          file_id: d.id,
          name: d.original_name,
          added_at: d.created_at,
          path: d.user_id === userId ? fileEntryName(d) : null,
        })),
    }));
  }
}
