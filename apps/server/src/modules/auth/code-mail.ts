import { type EmailCodePurpose, type Language, LIMITS } from '@aiplatform/contracts';

const MINUTES = LIMITS.emailCodeTtlSeconds / 60;

/** The sign-in (or sign-up) code mail in the requester's language. */
export function renderCodeMail(
  lang: Language,
  code: string,
  purpose: EmailCodePurpose = 'login',
): { subject: string; text: string } {
  if (lang === 'en-US') {
    return {
      subject: purpose === 'register' ? `Your registration code: ${code}` : `Your sign-in code: ${code}`,
      text: `Your verification code is ${code}. It is valid for ${MINUTES} minutes and can be used once.\nIf you did not ask for it, ignore this mail.`,
    };
  }
  return {
    subject: purpose === 'register' ? `您的注册验证码：${code}` : `您的登录验证码：${code}`,
    text: `您的验证码是 ${code}，${MINUTES} 分钟内有效，仅可使用一次。\n如果这不是您本人的操作，请忽略此邮件。`,
  };
}
