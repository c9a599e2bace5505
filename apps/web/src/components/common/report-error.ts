import { isApiError } from '../../api/api-error';
import { toast } from '../../api/notify';
import { i18n } from '../../i18n';

/** Validation details of a 400 answer are shown joined by a full-width semicolon. */
export const VALIDATION_JOINER = '；';

/** The text to show for a failed action: validation details, the server's message, or the fallback. */
export function errorText(error: unknown, fallbackKey: string): string {
  if (!isApiError(error)) return i18n.t(fallbackKey);
  const details = error.status === 400 ? error.validationErrors : [];
  if (details.length > 0) return details.join(VALIDATION_JOINER);
  return error.kind === 'http' && error.message ? error.message : i18n.t(fallbackKey);
}

/** Toasts a failed action unless the API client already did (or the call was cancelled). */
export function reportError(error: unknown, fallbackKey: string): void {
  if (isApiError(error) && (error.notified || error.kind === 'cancelled')) return;
  if (!isApiError(error)) console.error(error);
  toast('error', errorText(error, fallbackKey));
}
