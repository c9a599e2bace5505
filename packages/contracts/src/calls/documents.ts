import { z } from 'zod';
import {
  AddKnowledgeDocumentBodySchema,
  CreateKnowledgeBaseBodySchema,
  FileInfoSchema,
  FileParamsSchema,
  FileTextSchema,
  KnowledgeBaseDocumentParamsSchema,
  KnowledgeBaseSchema,
  KnowledgeDocumentSchema,
  UpdateKnowledgeBaseBodySchema,
} from '../documents.js';
import type { CallSpec } from './spec.js';

/**
 * Files (documents and images). A file is its owner's; a document in a knowledge base is
 * also readable by whoever may read that knowledge base. Anyone else gets 404. The upload
 * itself is multipart (CHAT_FILE_PATHS).
 */
export const FILE_CALLS = {
  getFile: {
    method: 'GET',
    path: '/chat/files/:id',
    access: 'chat.use',
    params: FileParamsSchema,
    response: FileInfoSchema,
  },
  getFileText: {
    method: 'GET',
    path: '/chat/files/:id/text',
    access: 'chat.use',
    params: FileParamsSchema,
    response: FileTextSchema,
  },
  deleteFile: {
    method: 'DELETE',
    path: '/chat/files/:id',
    access: 'chat.use',
    params: FileParamsSchema,
    response: z.object({ deleted: z.boolean() }),
  },
} as const satisfies Record<string, CallSpec>;

/**
 * Knowledge bases: a personal one is its owner's; a `group` one is read by its group and
 * changed by its group administrators and super administrators. Anyone else gets 404.
 */
export const KNOWLEDGE_CALLS = {
  /** Personal ones and those of the caller's group (all groups' for a super administrator). */
  listKnowledgeBases: {
    method: 'GET',
    path: '/knowledge-bases',
    access: 'chat.use',
    response: z.array(KnowledgeBaseSchema),
  },
  createKnowledgeBase: {
    method: 'POST',
    path: '/knowledge-bases',
    access: 'chat.use',
    body: CreateKnowledgeBaseBodySchema,
    response: KnowledgeBaseSchema,
    status: 201,
  },
  getKnowledgeBase: {
    method: 'GET',
    path: '/knowledge-bases/:id',
    access: 'chat.use',
    response: KnowledgeBaseSchema,
  },
  updateKnowledgeBase: {
    method: 'PUT',
    path: '/knowledge-bases/:id',
    access: 'chat.use',
    body: UpdateKnowledgeBaseBodySchema,
    response: KnowledgeBaseSchema,
  },
  deleteKnowledgeBase: {
    method: 'DELETE',
    path: '/knowledge-bases/:id',
    access: 'chat.use',
    response: z.object({ deleted: z.boolean() }),
  },
  listKnowledgeDocuments: {
    method: 'GET',
    path: '/knowledge-bases/:id/documents',
    access: 'chat.use',
    response: z.array(KnowledgeDocumentSchema),
  },
  addKnowledgeDocument: {
    method: 'POST',
    path: '/knowledge-bases/:id/documents',
    access: 'chat.use',
    body: AddKnowledgeDocumentBodySchema,
    response: KnowledgeDocumentSchema,
    status: 201,
  },
  /** The document leaves the knowledge base with its passages at once; the file stays its owner's. */
  removeKnowledgeDocument: {
    method: 'DELETE',
    path: '/knowledge-bases/:id/documents/:file_id',
    access: 'chat.use',
    params: KnowledgeBaseDocumentParamsSchema,
    response: z.object({ deleted: z.boolean() }),
  },
} as const satisfies Record<string, CallSpec>;
