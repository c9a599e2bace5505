import { AUTH_FILE_PATHS, type EmailCodePurpose, type User } from '@aiplatform/contracts';
import { callEnvelope } from './call';
import { request } from './http';

/** Mails a sign-in (or sign-up) code; resolves to the server's confirmation text. */
export async function sendEmailCode(email: string, purpose: EmailCodePurpose = 'login'): Promise<string> {
  const body = purpose === 'register' ? { email, purpose } : { email };
  return (await callEnvelope('sendEmailCode', { body })).message;
}

/** The avatar is a multipart upload, outside the JSON calls. */
export function uploadAvatar(file: Blob): Promise<{ user: User; url: string }> {
  const form = new FormData();
  form.append('avatar', file);
  return request<{ user: User; url: string }>({ method: 'POST', url: AUTH_FILE_PATHS.uploadAvatar, data: form });
}
