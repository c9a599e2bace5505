import { describe, expect, it, vi } from 'vitest';
import { ChatSessions } from './chat-sessions';
import { queueSend } from './send-queue';

const ID = 'c1';
/** Lets the microtask that fires a queued send run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function streamingStore(): ChatSessions {
  const store = new ChatSessions();
  store.update(ID, { status: 'ready', phase: 'streaming', input: 'next question' });
  return store;
}

describe('queueSend', () => {
  it('sends at once when no answer is being produced', () => {
    const store = new ChatSessions();
    const fire = vi.fn();
    queueSend(store, ID, fire);
    expect(fire).toHaveBeenCalledTimes(1);
    expect(store.get(ID).queued).toBe(false);
  });

  it('waits for the answer to end, then sends once and clears the mark', async () => {
    const store = streamingStore();
    const fire = vi.fn();
    queueSend(store, ID, fire);
    expect(store.get(ID).queued).toBe(true);

    store.update(ID, { messages: [] }); // the answer grows
    await settle();
    expect(fire).not.toHaveBeenCalled();

    store.update(ID, { phase: 'idle' });
    expect(store.get(ID).queued).toBe(false);
    await settle();
    expect(fire).toHaveBeenCalledTimes(1);

    // Later answers do not send it again.
    store.update(ID, { phase: 'streaming' });
    store.update(ID, { phase: 'idle' });
    await settle();
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it('is cancelled when the queued mark is cleared (the text was edited)', async () => {
    const store = streamingStore();
    const fire = vi.fn();
    queueSend(store, ID, fire);
    store.update(ID, { input: 'next question, edited', queued: false });
    store.update(ID, { phase: 'idle' });
    await settle();
    expect(fire).not.toHaveBeenCalled();
  });

  it('queues one send however often "send" is pressed', async () => {
    const store = streamingStore();
    const fire = vi.fn();
    queueSend(store, ID, fire);
    queueSend(store, ID, fire);
    store.update(ID, { phase: 'idle' });
    await settle();
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it('can be queued again after a cancel, and then fires once', async () => {
    const store = streamingStore();
    const fire = vi.fn();
    queueSend(store, ID, fire);
    store.update(ID, { queued: false });
    queueSend(store, ID, fire);
    store.update(ID, { phase: 'idle' });
    await settle();
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it('fires only after the notification that ended the answer has reached every listener', async () => {
    const store = streamingStore();
    const order: string[] = [];
    queueSend(store, ID, () => order.push('send'));
    store.subscribe(ID, () => {
      if (store.get(ID).phase === 'idle') order.push('other listener');
    });
    store.update(ID, { phase: 'idle' });
    order.push('after update');
    await settle();
    expect(order[0]).toBe('other listener');
    expect(order.slice(-2)).toEqual(['after update', 'send']);
  });

  it('is dropped with a deleted conversation', async () => {
    const store = streamingStore();
    const fire = vi.fn();
    queueSend(store, ID, fire);
    store.remove(ID);
    store.update(ID, { phase: 'idle' });
    await settle();
    expect(fire).not.toHaveBeenCalled();
  });
});
