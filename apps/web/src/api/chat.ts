import type {
  ChatModel,
  Conversation,
  ConversationDetail,
  CreateConversationBody,
  Message,
  NonStreamAnswer,
  StopAnswerResult,
  UpdateConversationBody,
  UploadedImage,
} from '@aiplatform/contracts';
import { LIMITS } from '@aiplatform/contracts';
import { http, request } from './http';

/** GET /chat/credits. */
export interface ChatCredits {
  credits_stats: {
    quota: number;
    used: number;
    remaining: number;
    isExpired: boolean;
    expireAt: string | null;
  };
}

const conversationUrl = (id: string) => `/chat/conversations/${encodeURIComponent(id)}`;

/** The chat calls of the API contract, one function each (streaming lives in chat-stream.ts). */
export const chatApi = {
  models: () => request<ChatModel[]>({ method: 'GET', url: '/chat/models' }),
  credits: () => request<ChatCredits>({ method: 'GET', url: '/chat/credits' }),
  conversations: () =>
    request<Conversation[]>({
      method: 'GET',
      url: '/chat/conversations',
      params: { limit: LIMITS.conversationPageSize, page: 1 },
    }),
  conversation: (id: string) => request<ConversationDetail>({ method: 'GET', url: conversationUrl(id) }),
  createConversation: (body: CreateConversationBody) =>
    request<Conversation>({ method: 'POST', url: '/chat/conversations', data: body }),
  updateConversation: (id: string, body: UpdateConversationBody) =>
    request<Conversation>({ method: 'PUT', url: conversationUrl(id), data: body }),
  /** `silent`: no toast on failure (the caller knows what it means). */
  deleteConversation: (id: string, options: { silent?: boolean } = {}) =>
    request<unknown>({ method: 'DELETE', url: conversationUrl(id), ...options }),
  messages: (id: string) => request<Message[]>({ method: 'GET', url: `${conversationUrl(id)}/messages` }),
  /** Non-stream send; `signal` lets the stop button cancel the pending request. */
  sendMessage: (id: string, body: { content: string; file_ids: string[] }, signal: AbortSignal) =>
    request<NonStreamAnswer>({
      method: 'POST',
      url: `${conversationUrl(id)}/messages`,
      data: { ...body, stream: false },
      signal,
    }),
  /**
   * Deletes an assistant message and the user message before it (or an unanswered question).
   * `keepImages`: the question's images stay as uploads, because they are sent again at once.
   */
  deleteMessagePair: (id: string, messageId: string, opts: { keepImages?: boolean } = {}) =>
    request<{ deletedUserMessageId: string; deletedAiMessageId: string }>({
      method: 'DELETE',
      url: `${conversationUrl(id)}/messages/${encodeURIComponent(messageId)}`,
      ...(opts.keepImages ? { params: { keep_images: 'true' } } : {}),
    }),
  clear: (id: string) => request<unknown>({ method: 'POST', url: `${conversationUrl(id)}/clear` }),
  /** Asks the server to stop the answer in progress (beside cutting the stream); quiet on failure. */
  stop: (id: string) => request<StopAnswerResult>({ method: 'POST', url: `${conversationUrl(id)}/stop`, silent: true }),
  // Drafts are saved in the background; their failures are only logged by the caller.
  saveDraft: (id: string, content: string) =>
    request<unknown>({ method: 'POST', url: `${conversationUrl(id)}/draft`, data: { content }, silent: true }),
  deleteDraft: (id: string) =>
    request<unknown>({ method: 'DELETE', url: `${conversationUrl(id)}/draft`, silent: true }),
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
