import os from 'node:os';
import path from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import { MODEL, type BenchUser, createConversation } from './api.js';
import { type Sqlite, insertMessages } from './db.js';
import { type Row, median, verdict } from './stats.js';

export interface WebOptions {
  apiUrl: string;
  db: Sqlite;
  user: BenchUser;
  executablePath: string;
  messages: number;
  baselineMessages: number;
  /** The streamed answer: pause between chunks and how many times the fake repeats its text. */
  streamDelayMs: number;
  streamRepeat: number;
  /** Each case is measured this many times (alternating) and the medians reported. */
  runs: number;
}

interface OpenResult {
  /** False when the last message never came on screen within the time limit. */
  shown: boolean;
  /** Click on the conversation → its last message is on screen. */
  shownMs: number;
  /** Click → last message shown and no long task for 200 ms. */
  interactiveMs: number;
  longTasks: number;
}

interface StreamResult {
  fps: number;
  frames: number;
  seconds: number;
  worstFrameMs: number;
  longTasks: number;
  /** Each long task while streaming: when it began (ms after the first text) and how long it took. */
  longTaskList: { at: number; ms: number }[];
}

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** How much slower the CPU is made for the throttled runs. */
const CPU_SLOWDOWN = 4;

/** A typical answer: a heading, a list, a code block and a formula. */
const answer = (i: number) =>
  [
    `## Answer ${i}`,
    '',
    'Here is a short list:',
    '',
    '- first item',
    '- second item with `inline code`',
    '',
    '```ts',
    `function add${i}(a: number, b: number): number {`,
    '  return a + b;',
    '}',
    '```',
    '',
    'The formula $E = mc^2$ closes the answer.',
  ].join('\n');
const question = (i: number) => `Question ${i}: how do I add two numbers in TypeScript?`;

declare global {
  interface Window {
    __bench?: { clickAt: number; longTasks: { start: number; end: number }[] };
  }
}

/** Records long tasks and the time of the next click, from now on. */
async function watchPage(page: Page) {
  await page.evaluate(() => {
    const state = { clickAt: 0, longTasks: [] as { start: number; end: number }[] };
    window.__bench = state;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) state.longTasks.push({ start: e.startTime, end: e.startTime + e.duration });
    }).observe({ type: 'longtask' });
    document.addEventListener('click', (e) => (state.clickAt = state.clickAt || e.timeStamp), { capture: true });
  });
}

/**
 * Opens /chat, clicks the conversation and times it until its last message is inside
 * the list's visible area and stays there, with no long task for 200 ms. A message that
 * shows for a moment and is then pushed away (rows growing as renderers load) does not count.
 */
async function openConversation(page: Page, base: string, title: string, lastId: string): Promise<OpenResult> {
  await page.goto(`${base}/chat`);
  const item = page.getByTestId('conversation-item').filter({ hasText: title });
  await item.waitFor({ timeout: 30_000 });
  await watchPage(page);
  await item.click();
  return page.evaluate(
    (id) =>
      new Promise<OpenResult>((resolve) => {
        const state = window.__bench as NonNullable<Window['__bench']>;
        const deadline = performance.now() + 10_000;
        let shownAt = 0;
        const inView = () => {
          const list = document.querySelector('[data-testid="message-list"]')?.getBoundingClientRect();
          const box = document.querySelector(`[data-testid="message-item"][data-id="${id}"]`)?.getBoundingClientRect();
          return !!list && !!box && box.height > 0 && box.top < list.bottom && box.bottom > list.top;
        };
        const frame = (now: number) => {
          if (!inView()) shownAt = 0;
          else if (!shownAt) shownAt = now;
          const settledAt = Math.max(shownAt, ...state.longTasks.map((t) => t.end));
          if (shownAt && now - settledAt >= 200)
            return resolve({
              shown: true,
              shownMs: shownAt - state.clickAt,
              interactiveMs: settledAt - state.clickAt,
              longTasks: state.longTasks.length,
            });
          if (now > deadline)
            return resolve({ shown: false, shownMs: NaN, interactiveMs: NaN, longTasks: state.longTasks.length });
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    lastId,
  );
}

/** Sends a message in the open conversation and counts animation frames while the answer streams in. */
async function streamAnswer(page: Page, delayMs: number, repeat: number): Promise<StreamResult> {
  await page.getByTestId('chat-input').fill(`[fake:delay=${delayMs}] [fake:repeat=${repeat}] Stream a long answer.`);
  await page.evaluate(() => {
    (window.__bench as NonNullable<Window['__bench']>).longTasks = [];
  });
  await page.getByTestId('send-button').click();
  return page.evaluate(
    () =>
      new Promise<StreamResult>((resolve, reject) => {
        const state = window.__bench as NonNullable<Window['__bench']>;
        const deadline = performance.now() + 60_000;
        const streaming = () =>
          document.querySelector('[data-testid="message-item"][data-status="streaming"] .chat-bubble')?.textContent;
        let start = 0;
        let last = 0;
        let frames = 0;
        let worst = 0;
        const frame = (now: number) => {
          if (now > deadline) return reject(new Error('the answer did not finish streaming'));
          const text = streaming();
          if (!start) {
            // Count from the first visible text of the answer.
            if (text) start = last = now;
            return requestAnimationFrame(frame);
          }
          frames += 1;
          worst = Math.max(worst, now - last);
          last = now;
          if (text === undefined) {
            const seconds = (now - start) / 1000;
            const during = state.longTasks.filter((t) => t.end >= start);
            const longTaskList = during.map((t) => ({
              at: Math.round(t.start - start),
              ms: Math.round(t.end - t.start),
            }));
            return resolve({
              fps: frames / seconds,
              frames,
              seconds,
              worstFrameMs: worst,
              longTasks: during.length,
              longTaskList,
            });
          }
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
}

async function runCase(
  browser: Browser,
  o: WebOptions,
  title: string,
  lastId: string,
  /** Chrome DevTools' CPU throttling: 4 runs the page as on a CPU four times slower. */
  cpuSlowdown = 1,
): Promise<{ open: OpenResult; stream: StreamResult }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  // tsx compiles the functions passed to page.evaluate with esbuild's keepNames, which
  // wraps them in calls to a `__name` helper that only exists in Node.
  await context.addInitScript('globalThis.__name = (f) => f;');
  try {
    const page = await context.newPage();
    if (cpuSlowdown > 1) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    }
    // Signed in the way the app keeps a session: its persisted auth store in localStorage.
    await page.goto(`${o.apiUrl}/login`);
    await page.evaluate((session) => {
      const state = {
        ...session,
        tokenExpiresAt: Date.now() + 3_600_000,
        isAuthenticated: true,
      };
      localStorage.setItem('aiplatform-auth', JSON.stringify({ state, version: 0 }));
    }, o.user.session);
    try {
      const open = await openConversation(page, o.apiUrl, title, lastId);
      const stream = await streamAnswer(page, o.streamDelayMs, o.streamRepeat);
      return { open, stream };
    } catch (err) {
      const shot = path.join(os.tmpdir(), `bench-web-${Date.now()}.png`);
      await page.screenshot({ path: shot }).catch(() => undefined);
      throw new Error(`${err instanceof Error ? err.message.split('\n')[0] : String(err)} (screenshot ${shot})`);
    }
  } finally {
    await context.close();
  }
}

/**
 * The chat screen in headless Chromium: opening a conversation of `messages` messages
 * (inserted straight into SQLite) and streaming an answer into it, against the same
 * with a `baselineMessages` conversation.
 */
/** The median of each field over several runs (the worst frame: the worst of all). */
function summarise(runs: { open: OpenResult; stream: StreamResult }[]) {
  const shown = runs.filter((r) => r.open.shown);
  const of = (pick: (r: (typeof runs)[number]) => number, among = runs) => median(among.map(pick));
  return {
    runs: runs.length,
    notShown: runs.length - shown.length,
    maxInteractiveMs: Math.max(...shown.map((r) => r.open.interactiveMs)),
    shownMs: of((r) => r.open.shownMs, shown),
    interactiveMs: of((r) => r.open.interactiveMs, shown),
    openLongTasks: of((r) => r.open.longTasks),
    fps: of((r) => r.stream.fps),
    streamSeconds: of((r) => r.stream.seconds),
    streamLongTasks: of((r) => r.stream.longTasks),
    worstFrameMs: Math.max(...runs.map((r) => r.stream.worstFrameMs)),
    each: runs,
  };
}

/**
 * The chat screen in headless Chromium: opening a conversation of `messages` messages
 * (inserted straight into SQLite) and streaming an answer into it, against the same
 * with a `baselineMessages` conversation; `runs` times each, alternating, medians reported.
 */
export async function measureWebConversation(o: WebOptions): Promise<Row[]> {
  const setup = async (count: number) => {
    const title = `Bench ${count} messages`;
    const id = await createConversation(o.apiUrl, o.user.token, { title });
    insertMessages(o.db, id, count, { model: MODEL, question, answer });
    // Each run streams one more answer into it: the message to wait for is the last one now.
    const lastId = () =>
      (
        o.db.prepare('select id from messages where conversation_id = ? order by seq desc limit 1').get(id) as {
          id: string;
        }
      ).id;
    return { title, lastId };
  };
  const small = await setup(o.baselineMessages);
  const large = await setup(o.messages);

  const browser = await chromium.launch({ executablePath: o.executablePath, args: ARGS });
  const baseRuns: Awaited<ReturnType<typeof runCase>>[] = [];
  const bigRuns: Awaited<ReturnType<typeof runCase>>[] = [];
  const slowRuns: Awaited<ReturnType<typeof runCase>>[] = [];
  const slowBaseRuns: Awaited<ReturnType<typeof runCase>>[] = [];
  try {
    for (let i = 0; i < o.runs; i++) {
      baseRuns.push(await runCase(browser, o, small.title, small.lastId()));
      bigRuns.push(await runCase(browser, o, large.title, large.lastId()));
      slowBaseRuns.push(await runCase(browser, o, small.title, small.lastId(), CPU_SLOWDOWN));
      slowRuns.push(await runCase(browser, o, large.title, large.lastId(), CPU_SLOWDOWN));
    }
  } finally {
    await browser.close();
  }
  const base = summarise(baseRuns);
  const big = summarise(bigRuns);
  const slow = summarise(slowRuns);
  const slowBase = summarise(slowBaseRuns);

  const ratio = (a: number, b: number) => `×${(a / b).toFixed(1)}`;
  const runs = `median of ${o.runs} runs`;
  const notShown = (s: typeof base) =>
    s.notShown ? `; last message NOT shown within 10 s in ${s.notShown} of ${s.runs} runs` : '';
  return [
    {
      what: `web: open a ${o.baselineMessages}-message conversation (baseline)`,
      result: `shown ${base.shownMs.toFixed(0)} ms, interactive ${base.interactiveMs.toFixed(0)} ms; streaming ${base.fps.toFixed(0)} fps (${runs})${notShown(base)}`,
      budget: '—',
      met: '—',
      data: base,
    },
    {
      what: `web: open a ${o.messages}-message conversation`,
      result:
        `shown ${big.shownMs.toFixed(0)} ms, interactive ${big.interactiveMs.toFixed(0)} ms ` +
        `(${ratio(big.interactiveMs, base.interactiveMs)} of baseline), worst ${big.maxInteractiveMs.toFixed(0)} ms, ` +
        `${big.openLongTasks} long tasks (${runs})${notShown(big)}`,
      budget: 'interactive ≤ 1 s',
      met: verdict(big.interactiveMs <= 1000 && big.notShown === 0),
      data: { ...big, each: undefined },
    },
    {
      what: `web: streaming into the ${o.messages}-message conversation`,
      result:
        `${big.fps.toFixed(0)} fps over ${big.streamSeconds.toFixed(1)} s (baseline ${base.fps.toFixed(0)} fps), ` +
        `worst frame ${big.worstFrameMs.toFixed(0)} ms, ${big.streamLongTasks} long tasks (${runs})`,
      budget: '≥ 50 fps',
      met: verdict(big.fps >= 50),
      data: big,
    },
    {
      // What the throttled page reaches with almost nothing in the list: the floor of this
      // machine (software rendering, the CPU shared with the server) for the row below.
      what: `web: the ${o.baselineMessages}-message conversation with the CPU ${CPU_SLOWDOWN}× slower (baseline)`,
      result:
        `interactive ${slowBase.interactiveMs.toFixed(0)} ms; streaming ${slowBase.fps.toFixed(0)} fps over ` +
        `${slowBase.streamSeconds.toFixed(1)} s, worst frame ${slowBase.worstFrameMs.toFixed(0)} ms, ` +
        `${slowBase.streamLongTasks} long tasks (${runs})${notShown(slowBase)}`,
      budget: '—',
      met: '—',
      data: { ...slowBase, each: undefined },
    },
    {
      what: `web: the ${o.messages}-message conversation with the CPU ${CPU_SLOWDOWN}× slower (DevTools throttling)`,
      result:
        `opened at its last message in ${slow.runs - slow.notShown} of ${slow.runs} runs, interactive ` +
        `${slow.interactiveMs.toFixed(0)} ms; streaming ${slow.fps.toFixed(0)} fps over ${slow.streamSeconds.toFixed(1)} s ` +
        `(baseline ${slowBase.fps.toFixed(0)} fps), ` +
        `worst frame ${slow.worstFrameMs.toFixed(0)} ms, ${slow.streamLongTasks} long tasks (${runs})`,
      budget: 'opens at its last message, ≥ 50 fps',
      met: verdict(slow.notShown === 0 && slow.fps >= 50),
      data: { ...slow, each: undefined },
    },
  ];
}
