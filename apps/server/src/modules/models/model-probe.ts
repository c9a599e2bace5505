import { performance } from 'node:perf_hooks';
import type { Language } from '@aiplatform/contracts';
import { generateText } from 'ai';
import { type ProviderTarget, createLanguageModel } from '../../ai/providers.js';
import { RedirectRefusedError } from '../../ai/upstream-fetch.js';
import { translate } from '../../lib/runtime/i18n.js';
import { maskKey } from './model-key.js';

export const TEST_TIMEOUT_MS = 15_000;
/** Longest upstream message kept on the row and shown to the administrator. */
export const TEST_MESSAGE_MAX = 500;

export interface TestOutcome {
  status: 'success' | 'failed';
  latencyMs: number;
  message: string;
}

interface ErrorLike {
  name?: string;
  message?: string;
  statusCode?: number;
  cause?: unknown;
}

/** The error and its causes, outermost first (bounded: causes can form a loop). */
function chainOf(err: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  for (let e = err; e && typeof e === 'object' && chain.length < 5; e = (e as ErrorLike).cause) {
    chain.push(e);
  }
  return chain;
}

export const isTimeout = (err: unknown) =>
  chainOf(err).some((e) => e.name === 'TimeoutError' || e.name === 'AbortError');

/** What to do about a refused redirect, in the administrator's language. */
export function redirectMessage(status: number, location: string, lang: Language): string {
  return location
    ? translate(lang, 'server.models.redirected', { status, location })
    : translate(lang, 'server.models.redirectedNowhere', { status });
}

/**
 * A failure as the administrator should read it: the HTTP status when there was one,
 * the upstream's own message, and the network reason (ECONNREFUSED, ENOTFOUND…) when
 * the connection itself failed; a refused redirect says where it pointed. The key is
 * masked; the text is trimmed.
 */
export function describeFailure(
  err: unknown,
  apiKey: string | undefined,
  timeoutMs: number,
  max: number,
  lang: Language = 'en-US',
): string {
  const redirect = chainOf(err).find((e): e is RedirectRefusedError => e instanceof RedirectRefusedError);
  if (redirect) return trimmed(maskKey(redirectMessage(redirect.statusCode, redirect.location, lang), apiKey), max);
  if (isTimeout(err)) {
    return `No answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}`;
  }
  const chain = chainOf(err);
  const top = chain[0];
  let text = top?.message?.trim() || String(err);
  const status = chain.find((e) => typeof e.statusCode === 'number')?.statusCode;
  if (status !== undefined && !text.includes(String(status))) text = `HTTP ${status}: ${text}`;
  // The innermost cause says what really happened ("connect ECONNREFUSED …", "bad port").
  const root = chain.length > 1 ? chain.at(-1)?.message?.trim() : undefined;
  if (root && !text.includes(root)) text = `${text} (${root})`;
  return trimmed(maskKey(text, apiKey), max);
}

const trimmed = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * One real call with the model's stored configuration, asking for a single token, so
 * the endpoint, the key and the model id are all proven together. Never throws: a
 * failure (including a configuration that cannot work) is an outcome with the reason.
 */
export async function testConnection(
  target: ProviderTarget,
  timeoutMs = TEST_TIMEOUT_MS,
  lang: Language = 'en-US',
): Promise<TestOutcome> {
  const started = performance.now();
  const latency = () => Math.max(0, Math.round(performance.now() - started));
  try {
    await generateText({
      model: createLanguageModel(target),
      prompt: 'ping',
      maxOutputTokens: 1,
      // A test should say how the upstream answers now, not after retries.
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(timeoutMs),
    });
    return { status: 'success', latencyMs: latency(), message: 'OK' };
  } catch (err) {
    const latencyMs = latency();
    return {
      status: 'failed',
      latencyMs,
      message: describeFailure(err, target.apiKey, timeoutMs, TEST_MESSAGE_MAX, lang),
    };
  }
}
