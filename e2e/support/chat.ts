import { type APIRequestContext, type Locator, type Page, expect } from '@playwright/test';
import type { RecordedRequest } from '../../apps/server/test/fake-upstream.js';
import { signInDirect } from './ui.js';
import type { TestUser } from './users.js';

/**
 * Chat helpers: a signed-in API client for set-up and server-side checks, the fake
 * upstream's record of what it was asked, and the common steps on the chat screen.
 */

export interface Conversation {
  id: string;
  title: string;
  model_name: string;
  system_prompt: string;
  message_count: number;
  total_tokens: number;
  created_at: string;
  updated_at: string;
  knowledge_base_ids?: number[];
}

export interface ConversationDetail extends Conversation {
  draft: { content: string; updated_at: string } | null;
}

export interface Message {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  tokens: number;
  status: string;
  created_at: string;
  /** The images, in the order sent; `file` is the first of them. */
  files: { id: string; url: string; original_name: string }[];
  file: { id: string; url: string; original_name: string } | null;
  parent_id: string | null;
  /** Its versions, oldest first, itself included. */
  sibling_ids?: string[];
}

export interface LedgerEntry {
  transaction_type: string;
  amount: number;
  balance_after: number;
}

/** The user's API: each call with the bearer token from a password login. */
export class ChatApi {
  private constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
  ) {}

  static async login(request: APIRequestContext, user: TestUser): Promise<ChatApi> {
    const res = await request.post('/api/auth/login', { data: { account: user.email, password: user.password } });
    expect(res.status(), await res.text()).toBe(200);
    const body = (await res.json()) as { data: { accessToken: string } };
    return new ChatApi(request, body.data.accessToken);
  }

  /** The Authorization header of this user. */
  get headers(): Record<string, string> {
    return { Authorization: `Bearer ${this.token}` };
  }

  private async call<T>(method: 'GET' | 'POST' | 'DELETE', url: string, data?: unknown): Promise<T> {
    const res = await this.request.fetch(`/api${url}`, { method, headers: this.headers, data });
    expect(res.ok(), `${method} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
    return ((await res.json()) as { data: T }).data;
  }

  /** The raw answer, for refusals. */
  raw(method: 'GET' | 'POST', url: string, data?: unknown) {
    return this.request.fetch(`/api${url}`, { method, headers: this.headers, data });
  }

  async remaining(): Promise<number> {
    return (await this.call<{ credits_stats: { remaining: number } }>('GET', '/chat/credits')).credits_stats.remaining;
  }

  createConversation(body: { model_name: string; title?: string; is_pinned?: boolean }): Promise<Conversation> {
    return this.call('POST', '/chat/conversations', body);
  }

  conversations(): Promise<Conversation[]> {
    return this.call('GET', '/chat/conversations');
  }

  conversation(id: string): Promise<ConversationDetail> {
    return this.call('GET', `/chat/conversations/${id}`);
  }

  messages(id: string): Promise<Message[]> {
    return this.call('GET', `/chat/conversations/${id}/messages`);
  }

  /** A whole question and answer in one non-stream call. */
  send(id: string, content: string): Promise<{ user_message: Message; assistant_message: Message }> {
    return this.call('POST', `/chat/conversations/${id}/messages`, { content, stream: false });
  }

  async ledger(): Promise<LedgerEntry[]> {
    return (await this.call<{ history: LedgerEntry[] }>('GET', '/auth/credit-history?page=1&limit=100')).history;
  }
}

/** Requests the fake upstream received whose last user message contains `marker`. */
export async function upstreamRequests(marker: string): Promise<RecordedRequest[]> {
  const base = process.env.E2E_FAKE_URL;
  if (!base) throw new Error('E2E_FAKE_URL is not set');
  const res = await fetch(`${base}/__stats`);
  const stats = (await res.json()) as { requests: RecordedRequest[] };
  return stats.requests.filter((r) => r.lastUserText.includes(marker));
}

/** The one upstream request carrying `marker`, once it satisfies `ready` (e.g. has ended). */
export async function upstreamRequest(
  marker: string,
  ready: (r: RecordedRequest) => boolean = () => true,
): Promise<RecordedRequest> {
  let hit: RecordedRequest | undefined;
  await expect
    .poll(async () => {
      const found = await upstreamRequests(marker);
      hit = found.find(ready);
      return found.length > 1 ? 'more than one request' : hit ? 'found' : 'not yet';
    })
    .toBe('found');
  return hit as RecordedRequest;
}

/**
 * The message list is virtualised: only rows in or near the view exist in the page, and
 * one rendered answer of the fake is about 430 px tall. A tall desktop window keeps a
 * conversation of a few turns wholly rendered, so that specs can count its messages.
 */
export const TALL_DESKTOP = { width: 1280, height: 1600 };

/** Signs in and opens the chat screen (optionally one conversation). */
export async function openChat(page: Page, user: TestUser, conversationId?: string): Promise<void> {
  await signInDirect(page, user.email, user.password, conversationId ? `/chat?c=${conversationId}` : '/chat');
  // A full page load of the app and the chat's code; a loaded 2-core machine can pass 10 s.
  await expect(page.getByTestId('chat-sidebar')).toBeVisible({ timeout: 30_000 });
}

/** The sidebar row of a conversation (the link that opens it). */
export const conversationItem = (page: Page, id: string): Locator =>
  page.locator(`[data-testid="conversation-item"][data-id="${id}"]`);

/** The "more" button beside a sidebar row. */
export const conversationMore = (page: Page, id: string): Locator =>
  page.locator(`[data-testid="conversation-more"][data-id="${id}"]`);

/** Chooses rename, pin (or unpin), settings or delete from a row's "more" menu with the mouse. */
export async function conversationAction(
  page: Page,
  id: string,
  action: 'rename' | 'pin' | 'settings' | 'delete',
): Promise<void> {
  await conversationMore(page, id).click();
  await page.locator(`.ant-dropdown:not(.ant-dropdown-hidden) [data-testid="conversation-menu-${action}"]`).click();
}

export const messages = (page: Page, role?: 'user' | 'assistant'): Locator =>
  page.locator(role ? `[data-testid="message-item"][data-role="${role}"]` : '[data-testid="message-item"]');

/** Types into the text box and presses Enter. */
export async function typeAndSend(page: Page, text: string): Promise<void> {
  const input = page.getByTestId('chat-input');
  await input.fill(text);
  await input.press('Enter');
}

/** The conversation id in the URL (`/chat?c=<id>`). */
export function openConversationId(page: Page): string {
  const id = new URL(page.url()).searchParams.get('c');
  if (!id) throw new Error(`no conversation open at ${page.url()}`);
  return id;
}
