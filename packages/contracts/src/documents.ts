import { z } from 'zod';

/*
 * Documents and knowledge bases in chat: what an uploaded file reports while its text is
 * extracted, the text itself, knowledge bases, citations and the per-turn document plan.
 * Messages carry i18n keys of the `validation` namespace.
 */

export const FILE_KINDS = ['image', 'document'] as const;
export type FileKind = (typeof FILE_KINDS)[number];
export const FILE_STATUSES = ['processing', 'ready', 'failed'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];
/** Why a document's extraction failed, on `FileInfo.error`. */
export const DOCUMENT_ERROR_CODES = ['FILE_UNREADABLE', 'FILE_ENCRYPTED', 'FILE_TOO_LARGE'] as const;
export type DocumentErrorCode = (typeof DOCUMENT_ERROR_CODES)[number];

export const MODEL_KINDS = ['chat', 'embedding'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

/** Limits of documents in chat; the size limit and the context share are settings (`files`). */
export const DOCUMENT_LIMITS = {
  /** Ready documents one message may carry (images have their own limit). */
  maxDocumentsPerMessage: 10,
  /** Knowledge bases one conversation may search. */
  maxKnowledgeBasesPerConversation: 10,
  /** Default and bounds of `files.max_document_mb`. */
  maxDocumentMbDefault: 20,
  maxDocumentMbMax: 512,
  /** Default of `files.full_context_share`: the share of the model's context documents may fill whole. */
  fullContextShareDefault: 0.5,
  /** Default `context_window` of a model, in tokens. */
  contextWindowDefault: 128_000,
  /** Passages sent per turn when documents go by relevance. */
  retrievalPassages: 8,
  /** Characters of a citation's snippet. */
  snippetChars: 240,
  /**
   * Scanned PDF pages one document has read by OCR at most (when the server has OCR): a
   * long scan cannot hold an extraction worker for long; its later pages stay without text.
   */
  ocrMaxPages: 20,
} as const;

/** An uploaded file as its owner sees it (POST /chat/files, GET /chat/files/{id}). */
export const FileInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  mime: z.string(),
  size: z.number(),
  kind: z.enum(FILE_KINDS),
  status: z.enum(FILE_STATUSES),
  /** A code from DOCUMENT_ERROR_CODES when `failed`, else null. */
  error: z.string().nullable(),
  pages: z.number().nullable(),
  tokens: z.number().nullable(),
  created_at: z.string(),
});
export type FileInfo = z.infer<typeof FileInfoSchema>;

export const FileParamsSchema = z.object({ id: z.string().uuid() });

/** GET /chat/files/{id}/text: the extracted text, page by page. */
export const FileTextSchema = z.object({
  pages: z.array(z.object({ page: z.number(), text: z.string() })),
});
export type FileText = z.infer<typeof FileTextSchema>;

/**
 * A passage an answer was given: the document, its page (PDF page, slide or sheet; null for
 * a document sent whole or one without pages) and the start of the passage.
 */
export const CitationSchema = z.object({
  file_id: z.string(),
  name: z.string(),
  page: z.number().nullable(),
  snippet: z.string(),
});
export type Citation = z.infer<typeof CitationSchema>;

export const KNOWLEDGE_BASE_SCOPES = ['personal', 'group'] as const;
export type KnowledgeBaseScope = (typeof KNOWLEDGE_BASE_SCOPES)[number];

export const KnowledgeBaseSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  scope: z.enum(KNOWLEDGE_BASE_SCOPES),
  /** The group of a `group` knowledge base; null for a personal one. */
  group_id: z.number().nullable(),
  document_count: z.number(),
  /** What the caller may do: members read a group's, its administrators change it. */
  abilities: z.object({ update: z.boolean(), delete: z.boolean() }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type KnowledgeBase = z.infer<typeof KnowledgeBaseSchema>;

const KbName = z
  .string({ error: 'validation.knowledgeBase.name' })
  .trim()
  .min(1, 'validation.knowledgeBase.name')
  .max(100, 'validation.knowledgeBase.name');
const KbDescription = z.string().trim().max(1000, 'validation.knowledgeBase.description');

/**
 * POST /knowledge-bases. A `group` one belongs to the creator's group; a super administrator
 * may name another with `group_id`.
 */
export const CreateKnowledgeBaseBodySchema = z.object({
  name: KbName,
  description: KbDescription.default(''),
  scope: z.enum(KNOWLEDGE_BASE_SCOPES, { error: 'validation.knowledgeBase.scope' }).default('personal'),
  group_id: z.number().int().min(1).max(2_147_483_647).optional(),
});
export type CreateKnowledgeBaseBody = z.infer<typeof CreateKnowledgeBaseBodySchema>;
export const UpdateKnowledgeBaseBodySchema = z.object({
  name: KbName.optional(),
  description: KbDescription.optional(),
});
export type UpdateKnowledgeBaseBody = z.infer<typeof UpdateKnowledgeBaseBodySchema>;
export const KnowledgeBaseParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
export const KnowledgeBaseDocumentParamsSchema = KnowledgeBaseParamsSchema.extend({ file_id: z.string().uuid() });
export const AddKnowledgeDocumentBodySchema = z.object({
  file_id: z.string({ error: 'validation.file.invalid' }).uuid('validation.file.invalid'),
});
/** A document of a knowledge base: the file as its owner would see it, and when it was added. */
export const KnowledgeDocumentSchema = FileInfoSchema.extend({ added_at: z.string() });
export type KnowledgeDocument = z.infer<typeof KnowledgeDocumentSchema>;

/** `knowledge_base_ids` on conversation create and update: the knowledge bases searched every turn. */
export const KnowledgeBaseIdsSchema = z
  .array(z.number().int().min(1).max(2_147_483_647), { error: 'validation.knowledgeBase.ids' })
  .max(DOCUMENT_LIMITS.maxKnowledgeBasesPerConversation, 'validation.knowledgeBase.ids');

/**
 * POST /chat/conversations/{id}/document-plan: what a send with these files would do, shown
 * in the composer before sending. `full`: the documents' whole text goes; `retrieval`: the
 * most relevant passages do (also whenever knowledge bases are attached and no document is);
 * `none`: no documents at all. `document_tokens`: an estimate of the document tokens sent;
 * `credits`: the turn's price with them.
 */
export const DocumentPlanBodySchema = z.object({
  file_ids: z.array(z.string().uuid('validation.file.invalid')).max(20, 'validation.file.tooMany').default([]),
  model_name: z.string().max(200).optional(),
});
export const DocumentPlanSchema = z.object({
  mode: z.enum(['none', 'full', 'retrieval']),
  document_tokens: z.number(),
  credits: z.number(),
});
export type DocumentPlan = z.infer<typeof DocumentPlanSchema>;
