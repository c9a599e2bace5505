import {
  CHAT_FILE_PATHS,
  type CreateKnowledgeBaseBody,
  type FileInfo,
  type UpdateKnowledgeBaseBody,
} from '@aiplatform/contracts';
import { call } from './call';
import { request } from './http';

/** The files' calls: the upload is multipart (outside the JSON calls), the rest are calls of the table. */
export const filesApi = {
  /** A document starts `processing`; failures are left to the caller, which names the file. */
  upload: (file: File, signal?: AbortSignal) => {
    const form = new FormData();
    form.append('file', file);
    return request<FileInfo>({ method: 'POST', url: CHAT_FILE_PATHS.uploadFile, data: form, signal, silent: true });
  },
  /** Polled while a document is read; a failed poll is simply asked again. */
  info: (id: string) => call('getFile', { params: { id }, silent: true }),
  text: (id: string) => call('getFileText', { params: { id } }),
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
  list: () => call('listKnowledgeBases'),
  get: (id: number) => call('getKnowledgeBase', { params: { id } }),
  create: (body: CreateKnowledgeBaseBody) => call('createKnowledgeBase', { body }),
  update: (id: number, body: UpdateKnowledgeBaseBody) => call('updateKnowledgeBase', { params: { id }, body }),
  remove: (id: number) => call('deleteKnowledgeBase', { params: { id } }),
  documents: (id: number) => call('listKnowledgeDocuments', { params: { id } }),
  addDocument: (id: number, fileId: string) =>
    call('addKnowledgeDocument', { params: { id }, body: { file_id: fileId } }),
  removeDocument: (id: number, fileId: string) => call('removeKnowledgeDocument', { params: { id, file_id: fileId } }),
};
