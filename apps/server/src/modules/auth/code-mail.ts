import { type Language, LIMITS } from '@aiplatform/contracts';

const MINUTES = LIMITS.emailCodeTtlSeconds / 60;

/** The sign-in code mail in the requester's language. */
export function renderCodeMail(lang: Language, code: string): { subject: string; text: string } {
  if (lang === 'en-US') {
    return {
      subject: `Your sign-in code: ${code}`,
      text: `Your verification code is ${code}. It is valid for ${MINUTES} minutes and can be used once.\nIf you did not ask for it, ignore this mail.`,
    };
  }
  return {
    subject: `您的登录验证码：${code}`,
    text: `您的验证码是 ${code}，${MINUTES} 分钟内有效，仅可使用一次。\n如果这不是您本人的操作，请忽略此邮件。`,
  };
}
