import {
  CHAT_FILE_PATHS,
  type CreateKnowledgeBaseBody,
  type FileInfo,
  type FileText,
  type KnowledgeBase,
  type KnowledgeDocument,
  type UpdateKnowledgeBaseBody,
} from '@aiplatform/contracts';
import { call } from './call';
import { request } from './http';

/*
 * The documents and knowledge-base calls. Their paths are written here until their call
 * tables join the generated route list, so the screens depend only on these functions.
 */

const fileUrl = (id: string) => `/chat/files/${encodeURIComponent(id)}`;
const kbUrl = (id: number) => `/knowledge-bases/${id}`;

export const filesApi = {
  /** A multipart upload (field `file`): a document starts `processing`. */
  upload: (file: File, signal?: AbortSignal) => {
    const form = new FormData();
    form.append('file', file);
    return request<FileInfo>({ method: 'POST', url: CHAT_FILE_PATHS.uploadFile, data: form, signal, silent: true });
  },
  info: (id: string) => request<FileInfo>({ method: 'GET', url: fileUrl(id), silent: true }),
  text: (id: string) => request<FileText>({ method: 'GET', url: `${fileUrl(id)}/text` }),
  remove: (id: string) => request<{ deleted: boolean }>({ method: 'DELETE', url: fileUrl(id), silent: true }),
  /** What a send with these files would do; quiet on failure (the composer then shows nothing). */
  plan: (conversationId: string, fileIds: string[], modelName: string | undefined, signal?: AbortSignal) =>
    call('documentPlan', {
      params: { id: conversationId },
      body: { file_ids: fileIds, ...(modelName ? { model_name: modelName } : {}) },
      signal,
      silent: true,
    }),
};

export const knowledgeApi = {
  list: () => request<KnowledgeBase[]>({ method: 'GET', url: '/knowledge-bases' }),
  get: (id: number) => request<KnowledgeBase>({ method: 'GET', url: kbUrl(id) }),
  create: (body: CreateKnowledgeBaseBody) =>
    request<KnowledgeBase>({ method: 'POST', url: '/knowledge-bases', data: body }),
  update: (id: number, body: UpdateKnowledgeBaseBody) =>
    request<KnowledgeBase>({ method: 'PUT', url: kbUrl(id), data: body }),
  remove: (id: number) => request<{ deleted: boolean }>({ method: 'DELETE', url: kbUrl(id) }),
  documents: (id: number) => request<KnowledgeDocument[]>({ method: 'GET', url: `${kbUrl(id)}/documents` }),
  addDocument: (id: number, fileId: string) =>
    request<KnowledgeDocument>({ method: 'POST', url: `${kbUrl(id)}/documents`, data: { file_id: fileId } }),
  removeDocument: (id: number, fileId: string) =>
    request<{ deleted: boolean }>({ method: 'DELETE', url: `${kbUrl(id)}/documents/${encodeURIComponent(fileId)}` }),
};
