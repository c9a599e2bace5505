import { type AiProvider, type Language, PROVIDER_DEFAULT_BASE } from '@aiplatform/contracts';
import { isRedirect, redirectTarget } from '../../ai/upstream-fetch.js';
import { AppError, InputError } from '../../lib/http/errors.js';
import { maskKey } from './model-key.js';
import { describeFailure, redirectMessage } from './model-probe.js';

export const DISCOVER_TIMEOUT_MS = 10_000;
/** A model list is small; anything this large is not one, and is not read to the end. */
const MAX_ANSWER_BYTES = 5 * 1024 * 1024;
/** The longest id the model form accepts. */
const MAX_ID_LENGTH = 200;
const DETAIL_MAX = 200;

export interface DiscoveryTarget {
  provider: AiProvider;
  endpoint: string | null | undefined;
  apiKey: string | undefined;
}

/** The list request of each provider: its address (one page, the largest allowed) and how the key is sent. */
function requestOf(t: DiscoveryTarget): { url: URL; headers: Record<string, string> } {
  const base = t.endpoint?.trim() || PROVIDER_DEFAULT_BASE[t.provider];
  // An OpenAI-compatible server has no default address.
  if (!base || !URL.canParse(base)) throw new InputError(['validation.url.invalid']);
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/models`;
  const headers: Record<string, string> = { accept: 'application/json' };
  switch (t.provider) {
    case 'openai':
    case 'openai_compatible':
      if (t.apiKey) headers.authorization = `Bearer ${t.apiKey}`;
      break;
    case 'anthropic':
      url.searchParams.set('limit', '1000');
      headers['anthropic-version'] = '2023-06-01';
      if (t.apiKey) headers['x-api-key'] = t.apiKey;
      break;
    case 'google':
      url.searchParams.set('pageSize', '1000');
      if (t.apiKey) headers['x-goog-api-key'] = t.apiKey;
      break;
  }
  return { url, headers };
}

/** Reads the body up to the cap; undefined when it is larger (leaving the loop cancels the rest). */
async function readCapped(res: Response): Promise<string | undefined> {
  if (!res.body) return '';
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) return undefined;
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** The model ids in a list answer: `data[].id` (OpenAI, Anthropic) or `models[].name` without `models/` (Google). */
function idsOf(provider: AiProvider, body: unknown): string[] | undefined {
  const b = body as { data?: unknown; models?: unknown } | null;
  const items = provider === 'google' ? b?.models : b?.data;
  if (!Array.isArray(items)) return undefined;
  const ids = items.map((m: unknown) => {
    const raw = (m as { id?: unknown; name?: unknown } | null)?.[provider === 'google' ? 'name' : 'id'];
    return typeof raw === 'string' ? raw.trim().replace(/^models\//, '') : '';
  });
  return [...new Set(ids.filter((id) => id.length > 0 && id.length <= MAX_ID_LENGTH))].sort();
}

/** The upstream's own short error text from a JSON error answer, when it gave one. */
function upstreamMessage(text: string): string | undefined {
  try {
    const b = JSON.parse(text) as { error?: unknown; message?: unknown };
    const e = b.error;
    const m = typeof e === 'string' ? e : ((e as { message?: unknown } | undefined)?.message ?? b.message);
    return typeof m === 'string' && m.trim() ? m.trim() : undefined;
  } catch {
    return undefined;
  }
}

const unreachable = (detail: string, key: string | undefined) => {
  const masked = maskKey(detail, key);
  return new AppError('UPSTREAM_UNREACHABLE', {
    detail: masked.length > DETAIL_MAX ? `${masked.slice(0, DETAIL_MAX - 1)}…` : masked,
  });
};

/**
 * Asks the provider which models the key can use. Unreachable, a non-2xx answer or an
 * answer that is not a model list: 502 UPSTREAM_UNREACHABLE with a short detail (the key
 * masked). Redirects are not followed: the key travels in headers that a redirect to
 * another host would carry along; the detail says where it pointed.
 */
export async function discoverModels(
  t: DiscoveryTarget,
  timeoutMs = DISCOVER_TIMEOUT_MS,
  lang: Language = 'en-US',
): Promise<string[]> {
  const { url, headers } = requestOf(t);
  const signal = AbortSignal.timeout(timeoutMs);
  let res: Response;
  let text: string | undefined;
  try {
    res = await fetch(url, { method: 'GET', headers, redirect: 'manual', signal });
    text = await readCapped(res);
  } catch (err) {
    throw unreachable(describeFailure(err, t.apiKey, timeoutMs, DETAIL_MAX, lang), t.apiKey);
  }
  if (isRedirect(res.status)) {
    throw unreachable(redirectMessage(res.status, redirectTarget(res.headers.get('location'), url), lang), t.apiKey);
  }
  if (res.status < 200 || res.status > 299) {
    const said = text === undefined ? undefined : upstreamMessage(text);
    throw unreachable(`HTTP ${res.status}${said ? `: ${said}` : ''}`, t.apiKey);
  }
  let ids: string[] | undefined;
  try {
    ids = text === undefined ? undefined : idsOf(t.provider, JSON.parse(text));
  } catch {
    ids = undefined;
  }
  if (!ids) throw unreachable('the answer is not a model list', t.apiKey);
  return ids;
}
