/** Business constants shared by server and web. */
export const LIMITS = {
  usernameMin: 3,
  usernameMax: 20,
  passwordMin: 6,
  passwordMax: 128,
  emailMax: 254,
  emailCodeLength: 6,
  emailCodeTtlSeconds: 5 * 60,
  emailCodeResendSeconds: 60,
  emailCodeMaxTries: 5,
  loginAttemptWindowSeconds: 15 * 60,
  /** Per-IP failures allowed in the window = account limit × this (offices share one NAT address). */
  loginAttemptIpFactor: 10,
  /**
   * Past the account limit, each further try from the same address waits twice as long as
   * the one before (1 s, 2 s, 4 s …), at most this long.
   */
  loginDelayMaxSeconds: 300,
  /**
   * Failures on one account from all addresses together (account limit × this) that pause
   * its password sign-in until someone signs in with an emailed code.
   */
  loginAccountLockFactor: 20,
  /** How long such a pause lasts at most when nobody signs in with a code. */
  loginAccountLockSeconds: 24 * 3600,
  /** Wrong current passwords allowed per account in the window when changing the password. */
  passwordChangeMaxFailures: 5,
  passwordChangeWindowSeconds: 15 * 60,
  refreshTokenTtlDays: 30,
  /**
   * Seconds after its replacement during which a replaced refresh token still counts as the
   * token it was issued for (one client refreshing the same token twice at once); later it
   * proves two holders and ends the session.
   */
  refreshReplacedGraceSeconds: 10,
  creditHistoryDefaultLimit: 20,
  creditHistoryMaxLimit: 100,
  avatarMaxBytes: 2 * 1024 * 1024,
  imageMaxBytes: 10 * 1024 * 1024,
  /**
   * Bytes of images one chat turn sends to a model that reads them: the question's own
   * (up to four, always sent), then earlier questions' newest first while they fit; older
   * ones are left out of the prompt. 20 MB is about 27 MB once base64-encoded, within the
   * request size common providers accept, and bounds what one send holds in memory.
   */
  imageBytesPerTurn: 20 * 1024 * 1024,
  defaultCreditsPerChat: 10,
  conversationPageSize: 100,
  contextLengthMax: 1000,
  /** The chat forms offer 0–100; the API accepts up to contextLengthMax. */
  contextLengthFormMax: 100,
  contextLengthDefault: 20,
  conversationTitleMax: 200,
  systemPromptMax: 20_000,
  messageMax: 100_000,
  upstreamTimeoutMs: 120_000,
  upstreamFirstByteTimeoutMs: 60_000,
  streamHeartbeatMs: 15_000,
  priorityMax: 10,
} as const;

/** Images one chat message may carry (upload each first, then send their ids). */
export const MAX_IMAGES_PER_MESSAGE = 4;

/** Mainland China mobile number: 11 digits, 1 then 3–9. */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
export const USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;
export const EMAIL_CODE_PATTERN = /^\d{6}$/;

export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'zh-CN';

/** Picks a supported language from an Accept-Language style value. */
export function pickLanguage(value: string | undefined | null): Language {
  if (!value) return FALLBACK_LANGUAGE;
  for (const part of value.split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase() ?? '';
    if (tag.startsWith('en')) return 'en-US';
    if (tag.startsWith('zh')) return 'zh-CN';
  }
  return FALLBACK_LANGUAGE;
}
