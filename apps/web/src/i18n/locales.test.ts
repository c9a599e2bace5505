import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Language } from '@aiplatform/contracts';
import { ADMIN_NAMESPACES, adminResources } from './admin-resources';
import { APP_NAMESPACES, appResources } from './app-resources';
import { CORE_NAMESPACES, DEFAULT_NAMESPACE, coreResources } from './core-resources';
import { THEME_NAMESPACES, themeResources } from './theme-resources';

const NAMESPACES = [...CORE_NAMESPACES, ...APP_NAMESPACES, ...ADMIN_NAMESPACES, ...THEME_NAMESPACES];
const resources: Record<Language, Record<string, object>> = {
  'zh-CN': {
    ...coreResources['zh-CN'],
    ...appResources['zh-CN'],
    ...adminResources['zh-CN'],
    ...themeResources['zh-CN'],
  },
  'en-US': {
    ...coreResources['en-US'],
    ...appResources['en-US'],
    ...adminResources['en-US'],
    ...themeResources['en-US'],
  },
};

const SRC = join(import.meta.dirname, '..');

function flattenKeys(node: unknown, prefix = ''): string[] {
  if (typeof node !== 'object' || node === null) return [prefix];
  return Object.entries(node).flatMap(([key, value]) => flattenKeys(value, prefix ? `${prefix}.${key}` : key));
}

function lookup(language: Language, namespace: string, key: string): unknown {
  let node: unknown = resources[language][namespace];
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

const NS_ALTERNATION = NAMESPACES.join('|');
/** `t('key')`, `t("ns:key")`, `i18n.t('…')`; template literals with `${…}` are dynamic and skipped. */
const T_CALL = /\bt\(\s*(['"`])((?:(?!\1).)+)\1/g;
/** Any string literal naming a namespaced key, e.g. maps of labels such as 'profile:transaction.admin_add'. */
const NAMESPACED_LITERAL = new RegExp(`(['"\`])((?:${NS_ALTERNATION}):[\\w.-]+)\\1`, 'g');

/** Every translation key written literally in the given files, with the files that use it. */
function usedKeys(files: readonly string[] = sourceFiles(SRC)): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const found = new Set(
      [...text.matchAll(T_CALL), ...text.matchAll(NAMESPACED_LITERAL)]
        .map((m) => m[2] ?? '')
        .filter((key) => key && !key.includes('${')),
    );
    for (const key of found) used.set(key, [...(used.get(key) ?? []), relative(SRC, file)]);
  }
  return used;
}

/** Files reachable from main.tsx through static imports: the code of the first bundle. */
function startupFiles(): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)) {
      const base = join(dirname(file), match[1] ?? '');
      const target = ['.ts', '.tsx', '/index.ts'].map((ext) => base + ext).find((p) => existsSync(p));
      if (target) visit(target);
    }
  };
  visit(join(SRC, 'main.tsx'));
  return [...seen];
}

function splitKey(key: string): [string, string] {
  const colon = key.indexOf(':');
  const namespace = key.slice(0, colon);
  if (colon > 0 && (NAMESPACES as readonly string[]).includes(namespace)) return [namespace, key.slice(colon + 1)];
  return [DEFAULT_NAMESPACE, key];
}

describe('locale files', () => {
  it.each(NAMESPACES)('namespace %s has the same keys in zh-CN and en-US', (namespace) => {
    const zh = flattenKeys(resources['zh-CN'][namespace]).sort();
    const en = flattenKeys(resources['en-US'][namespace]).sort();
    expect(zh.length).toBeGreaterThan(0);
    expect(en).toEqual(zh);
  });

  it('has no empty translations', () => {
    for (const language of ['zh-CN', 'en-US'] as const) {
      for (const namespace of NAMESPACES) {
        for (const key of flattenKeys(resources[language][namespace])) {
          expect(lookup(language, namespace, key), `${language} ${namespace}:${key}`).toMatch(/\S/);
        }
      }
    }
  });
});

describe('keys used in the source', () => {
  const used = usedKeys();

  it('finds the literal keys (the scan itself works)', () => {
    expect(used.size).toBeGreaterThan(100);
    expect(used.has('auth:login.title')).toBe(true);
    expect(used.has('profile:transaction.system_reward')).toBe(true);
  });

  it('exist as strings in both languages', () => {
    const missing: string[] = [];
    for (const [key, files] of used) {
      const [namespace, path] = splitKey(key);
      for (const language of ['zh-CN', 'en-US'] as const) {
        if (typeof lookup(language, namespace, path) !== 'string')
          missing.push(`${language} ${key} (${files.join(', ')})`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('start-up code', () => {
  it('uses only the namespaces loaded before sign-in', () => {
    const files = startupFiles();
    expect(files.some((f) => f.endsWith('LoginPage.tsx'))).toBe(true);
    expect(files.some((f) => f.endsWith('AppLayout.tsx'))).toBe(false);
    const late = [...usedKeys(files)]
      .filter(([key]) => !(CORE_NAMESPACES as readonly string[]).includes(splitKey(key)[0]))
      .map(([key, where]) => `${key} (${where.join(', ')})`);
    expect(late).toEqual([]);
  });
});
