import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChangeBus, createChangeBus } from './change-bus.js';
import { createRedis } from './kv-store.js';

const REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const quiet = { warn: () => undefined };

/** Resolves when `name` is heard on the bus, or with false after `ms`. */
function heard(bus: ChangeBus, name: string, ms = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stop();
      resolve(false);
    }, ms);
    const stop = bus.subscribe(name, () => {
      clearTimeout(timer);
      stop();
      resolve(true);
    });
  });
}

describe('change bus without Redis', () => {
  it('tells the listeners of that name, at once, and stops when asked', async () => {
    const bus = createChangeBus(undefined, 'x:', quiet);
    const calls: string[] = [];
    const stop = bus.subscribe('settings', () => calls.push('settings'));
    bus.subscribe('models', () => calls.push('models'));
    await bus.publish('settings');
    expect(calls).toEqual(['settings']);
    stop();
    await bus.publish('settings');
    expect(calls).toEqual(['settings']);
    await bus.close();
  });

  it('keeps telling the others when one listener throws', async () => {
    const bus = createChangeBus(undefined, 'x:', quiet);
    let reached = false;
    bus.subscribe('settings', () => {
      throw new Error('broken listener');
    });
    bus.subscribe('settings', () => {
      reached = true;
    });
    await expect(bus.publish('settings')).resolves.toBeUndefined();
    expect(reached).toBe(true);
    await bus.close();
  });
});

describe.skipIf(!REDIS_URL)('change bus over Redis', () => {
  const open: { bus: ChangeBus; close: () => Promise<unknown> }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) {
      await o.bus.close();
      await o.close();
    }
  });

  async function instance(prefix: string): Promise<ChangeBus> {
    const redis = createRedis(REDIS_URL as string);
    const bus = createChangeBus(redis, prefix, quiet);
    open.push({ bus, close: () => redis.quit() });
    await bus.ready();
    return bus;
  }

  it('reaches every instance of the installation once, and no other installation', async () => {
    const prefix = `test-${crypto.randomUUID()}:`;
    const [a, b] = [await instance(prefix), await instance(prefix)];
    const stranger = await instance(`test-${crypto.randomUUID()}:`);
    let onA = 0;
    a.subscribe('settings', () => (onA += 1));
    const onB = heard(b, 'settings');
    const onStranger = heard(stranger, 'settings', 300);
    await a.publish('settings');
    expect(await onB).toBe(true);
    expect(await onStranger).toBe(false);
    // Its own message coming back through Redis is not delivered a second time.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(onA).toBe(1);
  });

  it('does not fail the publisher when Redis is gone', async () => {
    const redis = createRedis(REDIS_URL as string);
    const bus = createChangeBus(redis, `test-${crypto.randomUUID()}:`, quiet);
    await bus.ready();
    let local = false;
    bus.subscribe('settings', () => (local = true));
    redis.disconnect();
    await expect(bus.publish('settings')).resolves.toBeUndefined();
    expect(local).toBe(true);
    await bus.close();
  });
});
