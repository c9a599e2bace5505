import type { CreateConversationBody, UpdateConversationBody, UploadedImage } from '@aiplatform/contracts';
import { LIMITS } from '@aiplatform/contracts';
import { call } from './call';
import type { TurnBody } from './chat-stream';
import { http, request } from './http';

/** The chat calls of the API contract, one function each (streaming lives in chat-stream.ts). */
export const chatApi = {
  models: () => call('chatModels'),
  credits: () => call('chatCredits'),
  conversations: () => call('listConversations', { query: { limit: LIMITS.conversationPageSize, page: 1 } }),
  conversation: (id: string) => call('getConversation', { params: { id } }),
  createConversation: (body: CreateConversationBody) => call('createConversation', { body }),
  updateConversation: (id: string, body: UpdateConversationBody) =>
    call('updateConversation', { params: { id }, body }),
  /** `silent`: no toast on failure (the caller knows what it means). */
  deleteConversation: (id: string, options: { silent?: boolean } = {}) =>
    call('deleteConversation', { params: { id }, ...options }),
  messages: (id: string) => call('listMessages', { params: { id } }),
  /** Non-stream send (or regenerate); `signal` lets the stop button cancel the pending request. */
  sendMessage: (id: string, turn: TurnBody, signal: AbortSignal) => {
    const { regenerateOf, ...question } = turn;
    return regenerateOf
      ? call('regenerateAnswer', { params: { id, messageId: regenerateOf }, body: { stream: false }, signal })
      : call('sendMessage', { params: { id }, body: { ...question, stream: false }, signal });
  },
  /** Shows the branch of one version (it and its newest descendants); answers that branch. */
  showVersion: (id: string, messageId: string) =>
    call('showVersion', { params: { id }, body: { message_id: messageId } }),
  /**
   * Deletes a version with what follows it, or a turn without versions on its own (an
   * answer with its question, or an unanswered question); `deleted_ids` lists what went.
   * `keepImages`: the question's images stay as uploads, because they are sent again at once.
   */
  deleteMessagePair: (id: string, messageId: string, opts: { keepImages?: boolean } = {}) =>
    call('deleteMessage', {
      params: { id, messageId },
      ...(opts.keepImages ? { query: { keep_images: 'true' } } : {}),
    }),
  clear: (id: string) => call('clearConversation', { params: { id } }),
  /** Asks the server to stop the answer in progress (beside cutting the stream); quiet on failure. */
  stop: (id: string) => call('stopAnswer', { params: { id }, silent: true }),
  // Drafts are saved in the background; their failures are only logged by the caller.
  saveDraft: (id: string, content: string) => call('saveDraft', { params: { id }, body: { content }, silent: true }),
  deleteDraft: (id: string) => call('deleteDraft', { params: { id }, silent: true }),
  /** A multipart upload: a file, outside the JSON calls. */
  uploadImage: (file: File) => {
    const form = new FormData();
    form.append('image', file);
    return request<UploadedImage>({ method: 'POST', url: '/chat/upload-image', data: form });
  },
  /** An uploaded file: its route needs the bearer token, so it is fetched rather than linked. */
  fileBlob: async (url: string): Promise<Blob> => {
    const response = await http.get<Blob>(url.replace(/^\/api(?=\/)/, ''), { responseType: 'blob', silent: true });
    return response.data;
  },
};
