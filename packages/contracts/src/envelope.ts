import type { ErrorCode } from './errors.js';

export interface SuccessEnvelope<T> {
  success: true;
  code: number;
  message: string;
  data: T;
  timestamp: string;
  pagination?: Pagination;
}

export interface ErrorEnvelope {
  success: false;
  code: number;
  error: ErrorCode;
  message: string;
  data?: { errors?: string[]; [key: string]: unknown };
  requestId: string;
  timestamp: string;
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasNext: boolean;
  hasPrev: boolean;
}
