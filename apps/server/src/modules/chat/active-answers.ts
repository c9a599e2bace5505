import type { AbortReason } from '../../ai/upstream.js';

interface Running {
  conversationId: string;
  done: Promise<unknown>;
}

/**
 * The answers this process is producing, by their abort controllers. Stopping aborts the
 * upstream call and waits until the partial answer is stored, so whoever asked to stop
 * reads the final state right after. (Answers held by another instance are stopped
 * through the change bus: see SendService.stop.)
 */
export class ActiveAnswers {
  private readonly running = new Map<AbortController, Running>();

  async track<T>(conversationId: string, ac: AbortController, run: () => Promise<T>): Promise<T> {
    const done = run();
    this.running.set(ac, { conversationId, done });
    try {
      return await done;
    } finally {
      this.running.delete(ac);
    }
  }

  /** Stops the answers of one conversation as if their client had left; resolves to how many. */
  stopConversation(conversationId: string): Promise<number> {
    return this.stopWhere((r) => r.conversationId === conversationId, 'client');
  }

  /** Stops every answer (server shutdown); their partial text is kept. */
  async stopAll(): Promise<void> {
    await this.stopWhere(() => true, 'shutdown');
  }

  private async stopWhere(match: (r: Running) => boolean, reason: AbortReason): Promise<number> {
    const stopping = [...this.running].filter(([, r]) => match(r));
    for (const [ac] of stopping) ac.abort(reason);
    await Promise.allSettled(stopping.map(([, r]) => r.done));
    return stopping.length;
  }
}
