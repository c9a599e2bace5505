import { z } from 'zod';
import { LIMITS, MAX_IMAGES_PER_MESSAGE } from './limits.js';
import { clampedLimit } from './fields.js';
import { CitationSchema, DOCUMENT_LIMITS, FILE_KINDS, KnowledgeBaseIdsSchema } from './documents.js';

/*
 * The chat wire contract . Messages of these schemas carry
 * i18n keys of the `validation` namespace, like the account schemas.
 */

export const AI_PROVIDERS = ['openai', 'openai_compatible', 'anthropic', 'google'] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];

/** A model as a chatting user sees it (GET /chat/models). */
export const ChatModelSchema = z.object({
  id: z.number(),
  name: z.string(),
  display_name: z.string(),
  provider: z.enum(AI_PROVIDERS),
  credits_per_chat: z.number(),
  stream_enabled: z.boolean(),
  image_upload_enabled: z.boolean(),
  sort_order: z.number(),
  /** Tokens the model reads at once, and the price of 1,000 document tokens (0: free). */
  context_window: z.number(),
  credits_per_1k_document_tokens: z.number(),
});
export type ChatModel = z.infer<typeof ChatModelSchema>;

const TitleSchema = z.string().trim().max(LIMITS.conversationTitleMax, 'validation.title.max');
const ModelNameSchema = z
  .string({ error: 'validation.model.required' })
  .trim()
  .min(1, 'validation.model.required')
  .max(200, 'validation.model.required');
const SystemPromptSchema = z.string().max(LIMITS.systemPromptMax, 'validation.systemPrompt.max');
const ContextLengthSchema = z
  .number({ error: 'validation.contextLength.range' })
  .int('validation.contextLength.range')
  .min(0, 'validation.contextLength.range')
  .max(LIMITS.contextLengthMax, 'validation.contextLength.range');
const TemperatureSchema = z
  .number({ error: 'validation.temperature.range' })
  .min(0, 'validation.temperature.range')
  .max(1, 'validation.temperature.range');
const PrioritySchema = z
  .number({ error: 'validation.priority.range' })
  .int('validation.priority.range')
  .min(0, 'validation.priority.range')
  .max(LIMITS.priorityMax, 'validation.priority.range');

/** POST /chat/conversations: only the model is required. */
export const CreateConversationBodySchema = z.object({
  model_name: ModelNameSchema,
  title: TitleSchema.optional(),
  system_prompt: SystemPromptSchema.optional(),
  context_length: ContextLengthSchema.optional(),
  ai_temperature: TemperatureSchema.optional(),
  priority: PrioritySchema.optional(),
  is_pinned: z.boolean().optional(),
  /** The knowledge bases searched on every turn (replaces the list on update). */
  knowledge_base_ids: KnowledgeBaseIdsSchema.optional(),
});
export type CreateConversationBody = z.infer<typeof CreateConversationBodySchema>;

/** PUT /chat/conversations/{id}: any subset; a title, when given, must not be empty. */
export const UpdateConversationBodySchema = z.object({
  title: TitleSchema.min(1, 'validation.title.required').optional(),
  model_name: ModelNameSchema.optional(),
  system_prompt: SystemPromptSchema.optional(),
  context_length: ContextLengthSchema.optional(),
  ai_temperature: TemperatureSchema.optional(),
  priority: PrioritySchema.optional(),
  is_pinned: z.boolean().optional(),
  /** The knowledge bases searched on every turn (replaces the list on update). */
  knowledge_base_ids: KnowledgeBaseIdsSchema.optional(),
});
export type UpdateConversationBody = z.infer<typeof UpdateConversationBodySchema>;

export const DraftSchema = z.object({ content: z.string(), updated_at: z.string() });
export type Draft = z.infer<typeof DraftSchema>;

/** An empty `title` means "not named yet"; clients show a translated "new conversation". */
export const ConversationSchema = z.object({
  id: z.string(),
  title: z.string(),
  model_name: z.string(),
  system_prompt: z.string(),
  is_pinned: z.boolean(),
  context_length: z.number(),
  ai_temperature: z.number(),
  priority: z.number(),
  message_count: z.number(),
  total_tokens: z.number(),
  last_message_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The knowledge bases searched on every turn. */
  knowledge_base_ids: z.array(z.number()).optional(),
});
export type Conversation = z.infer<typeof ConversationSchema>;

export const ConversationDetailSchema = ConversationSchema.extend({
  draft: DraftSchema.nullable(),
  /**
   * The display name of the conversation's model as of now (even when it is switched off or
   * closed to the user's group, so a notice can name it); its id once the model is deleted.
   */
  model_display_name: z.string().optional(),
});
export type ConversationDetail = z.infer<typeof ConversationDetailSchema>;

/** Conversations and messages are named by UUIDs in paths, not by row ids. */
export const ConversationParamsSchema = z.object({ id: z.string().uuid() });
export const MessageParamsSchema = z.object({ id: z.string().uuid(), messageId: z.string().uuid() });

export const ConversationListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: clampedLimit(LIMITS.conversationPageSize, LIMITS.conversationPageSize),
});

/**
 * `unanswered`: a question whose answer never came (an error, or a stop before the first
 * word). Its turn was refunded; the question stays, is left out of the model's context and
 * can be deleted on its own or sent again.
 */
export const MESSAGE_STATUSES = ['complete', 'streaming', 'stopped', 'error', 'unanswered'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** An attachment of a message: an image (`url` shows it) or a document (`kind: document`). */
export const MessageFileSchema = z.object({
  id: z.string(),
  url: z.string(),
  original_name: z.string(),
  kind: z.enum(FILE_KINDS).optional(),
});
export type MessageFile = z.infer<typeof MessageFileSchema>;

export const MessageSchema = z.object({
  id: z.string(),
  conversation_id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  /** The message's files (images, then documents as sent), in the order they were sent. */
  files: z.array(MessageFileSchema),
  /** The first of `files`, or null: the single-image field older clients read. */
  file: MessageFileSchema.nullable(),
  created_at: z.string(),
  tokens: z.number(),
  model_name: z.string().nullable(),
  /** `stopped`: the user stopped the answer; clients append the stopped suffix. */
  status: z.enum(MESSAGE_STATUSES),
  /** The message this one follows: a question's previous message (null for a first question), an answer's question. */
  parent_id: z.string().nullable(),
  /** Its versions (the children of the same parent) oldest first, itself included; in message lists. */
  sibling_ids: z.array(z.string()).optional(),
  /**
   * Why a turn failed (an error code such as `UPSTREAM_ERROR`, as its stream's `error` event
   * said), on a question left `unanswered`, whose `model_name` then names the model it was
   * sent to; null otherwise (and for a stop before the first word). Always present in answers.
   */
  error_code: z.string().nullable().optional(),
  /** On an answer: the document passages it was given (empty when none). */
  citations: z.array(CitationSchema).optional(),
});
export type Message = z.infer<typeof MessageSchema>;

/** Files one message may carry: images and documents together (each kind has its own limit). */
export const MAX_FILES_PER_MESSAGE = MAX_IMAGES_PER_MESSAGE + DOCUMENT_LIMITS.maxDocumentsPerMessage;

/**
 * A send's files (images and documents): `file_id` (one, the older form) and `file_ids` (a
 * list) may both be given; they are merged in that order and repeats dropped. More than
 * MAX_FILES_PER_MESSAGE different files are refused here; the server refuses more than
 * MAX_IMAGES_PER_MESSAGE images or DOCUMENT_LIMITS.maxDocumentsPerMessage documents, by
 * name rather than cut silently.
 */
export const SendMessageBodySchema = z
  .object({
    content: z.string({ error: 'validation.content.type' }).max(LIMITS.messageMax, 'validation.content.max'),
    file_id: z.string().uuid('validation.file.invalid').nullable().optional(),
    file_ids: z
      .array(z.string().uuid('validation.file.invalid'), { error: 'validation.file.invalid' })
      .nullable()
      .optional(),
    stream: z.boolean().default(true),
    stream_options: z.object({ delta_only: z.boolean().default(false) }).optional(),
    /**
     * The message the question follows: absent, the last message of the branch shown; an
     * earlier question's parent makes an edit (a new version of that question); null, a
     * new version of the first question.
     */
    parent_id: z.string().uuid('validation.message.invalid').nullable().optional(),
  })
  .refine((b) => sendFileIds(b).length <= MAX_FILES_PER_MESSAGE, {
    message: 'validation.file.tooMany',
    path: ['file_ids'],
  });
export type SendMessageBody = z.infer<typeof SendMessageBodySchema>;

/**
 * POST /chat/conversations/{id}/messages/{questionId}/regenerate: a new answer under a
 * stored question. The body of a send is accepted; only its stream options count.
 */
export const RegenerateBodySchema = z.object({
  stream: z.boolean().default(true),
  stream_options: z.object({ delta_only: z.boolean().default(false) }).optional(),
});
export type RegenerateBody = z.infer<typeof RegenerateBodySchema>;

/** PUT /chat/conversations/{id}/active: show the branch of this version (with its newest descendants). */
export const ActiveBranchBodySchema = z.object({
  message_id: z.string({ error: 'validation.message.invalid' }).uuid('validation.message.invalid'),
});
export type ActiveBranchBody = z.infer<typeof ActiveBranchBodySchema>;

/** GET /chat/conversations/{id}/stream: `delta_only=true` (or 1) sends `{delta}` without `fullContent`, as a send's option. */
export const WatchAnswerQuerySchema = z.object({
  delta_only: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .catch(undefined)
    .transform((v) => v === 'true' || v === '1'),
});

/** Answer of POST /chat/conversations/{id}/stop: how many answers in progress were stopped. */
export const StopAnswerResultSchema = z.object({ stopped: z.number().int() });
export type StopAnswerResult = z.infer<typeof StopAnswerResultSchema>;

/** The files of a send, in order: `file_id` first, then `file_ids`, each id once. */
export function sendFileIds(body: { file_id?: string | null; file_ids?: readonly string[] | null }): string[] {
  return [...new Set([...(body.file_id ? [body.file_id] : []), ...(body.file_ids ?? [])])];
}

export const DraftBodySchema = z.object({
  content: z.string({ error: 'validation.content.type' }).max(LIMITS.messageMax, 'validation.content.max'),
});

export const CreditsInfoSchema = z.object({
  credits_remaining: z.number(),
  credits_consumed: z.number(),
});

export const NonStreamAnswerSchema = z.object({
  user_message: MessageSchema,
  assistant_message: MessageSchema,
  credits_info: CreditsInfoSchema,
  conversation: ConversationSchema,
});
export type NonStreamAnswer = z.infer<typeof NonStreamAnswerSchema>;

export const UploadedImageSchema = z.object({
  id: z.string(),
  url: z.string(),
  original_name: z.string(),
  mime: z.string(),
  size: z.number(),
});
export type UploadedImage = z.infer<typeof UploadedImageSchema>;

export const ChatCreditsSchema = z.object({
  credits_stats: z.object({
    quota: z.number(),
    used: z.number(),
    remaining: z.number(),
    isExpired: z.boolean(),
    expireAt: z.string().nullable(),
  }),
});
export type ChatCredits = z.infer<typeof ChatCreditsSchema>;

/** Server-sent events of a streamed answer, in order: connected, init, message*, then done or error (a resumed answer: resume, message*, done or error). */
export const StreamEventSchemas = {
  connected: z.object({ status: z.literal('connected') }),
  init: z.object({
    user_message: MessageSchema,
    ai_message_id: z.string(),
    credits_info: CreditsInfoSchema.extend({ model_credits_per_chat: z.number() }),
  }),
  /** First event of GET …/stream: the answer being written and its text so far. */
  resume: z.object({ message_id: z.string(), content: z.string() }),
  /** `fullContent` is omitted when the client asked for `delta_only`. */
  message: z.object({ delta: z.string(), fullContent: z.string().optional() }),
  done: z.object({
    content: z.string(),
    messageId: z.string(),
    tokens: z.number(),
    finish_reason: z.enum(['stop', 'length', 'stopped']),
    /** The document passages the answer was given, as stored with it (absent when none). */
    citations: z.array(CitationSchema).optional(),
  }),
  /** Shaped like the error envelope: HTTP-style number, stable code, translated text. */
  error: z.object({ code: z.number(), error: z.string(), message: z.string() }),
} as const;
export type StreamEventName = keyof typeof StreamEventSchemas;
export type StreamEvent = {
  [K in StreamEventName]: { event: K; data: z.infer<(typeof StreamEventSchemas)[K]> };
}[StreamEventName];

/** What a deletion removed: the answer and question named as before, and every message of the subtree. */
export const DeletePairResultSchema = z.object({
  deletedUserMessageId: z.string(),
  deletedAiMessageId: z.string(),
  deleted_ids: z.array(z.string()),
});
export const ClearResultSchema = z.object({ conversationId: z.string(), cleared: z.literal(true) });
export const DeleteConversationResultSchema = z.object({ conversationId: z.string(), deleted: z.literal(true) });

/**
 * DELETE /chat/conversations/{id}/messages/{messageId}: `keep_images=true` keeps the
 * question's images as uploads, to be sent again at once (regenerate, edit); unused, they
 * go with the day-old uploads.
 */
export const DeleteMessageQuerySchema = z.object({ keep_images: z.enum(['true', 'false']).optional() });
