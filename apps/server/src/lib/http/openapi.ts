import { z } from 'zod';

/** Wraps a data schema in the success envelope, for response serialization and docs. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({
    success: z.literal(true),
    code: z.number(),
    message: z.string(),
    data,
    timestamp: z.string(),
  });
}
