import { useState } from 'react';
import { isApiError } from '../../../api/api-error';
import { createIdempotencyKey } from '../../../api/idempotency-key';

/**
 * One key per opened form, so resubmitting after a lost answer cannot apply twice. When
 * the server did answer with a refusal nothing was applied, and the corrected form gets
 * a fresh key (the server would otherwise see one key with two different bodies).
 */
export function useIdempotencyKey() {
  const [key, setKey] = useState(createIdempotencyKey);
  const renewAfter = (error: unknown) => {
    if (isApiError(error) && error.kind === 'http') setKey(createIdempotencyKey());
  };
  return { key, renewAfter };
}
