import type { z } from 'zod';
import type { PaginationSchema } from './admin/pagination.js';
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

/** The one pagination shape, beside `data` on every list (its schema lives with the admin lists). */
export type Pagination = z.infer<typeof PaginationSchema>;
