import { describe, expect, it } from 'vitest';
import { NAV_EXPANDED_KEY, readNavExpanded, writeNavExpanded } from './nav-expanded';

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
    values,
  };
}

describe('the side menu remembers being expanded', () => {
  it('starts narrow and remembers both choices', () => {
    const storage = memoryStorage();
    expect(readNavExpanded(storage)).toBe(false);
    writeNavExpanded(true, storage);
    expect(storage.values.get(NAV_EXPANDED_KEY)).toBe('1');
    expect(readNavExpanded(storage)).toBe(true);
    writeNavExpanded(false, storage);
    expect(readNavExpanded(storage)).toBe(false);
  });

  it('stays narrow when storage is missing or refuses', () => {
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    expect(readNavExpanded(refusing)).toBe(false);
    expect(() => writeNavExpanded(true, refusing)).not.toThrow();
    expect(readNavExpanded(undefined)).toBe(false);
  });
});
