import {
  errorsEnUS,
  errorsZhCN,
  type Language,
  pickLanguage,
  validationEnUS,
  validationZhCN,
} from '@aiplatform/contracts';
import serverEnUS from '../../locales/en-US/server.json' with { type: 'json' };
import serverZhCN from '../../locales/zh-CN/server.json' with { type: 'json' };

type Dict = Record<string, unknown>;
const DICTS: Record<Language, { errors: Dict; validation: Dict; server: Dict }> = {
  'zh-CN': { errors: errorsZhCN, validation: validationZhCN, server: serverZhCN },
  'en-US': { errors: errorsEnUS, validation: validationEnUS, server: serverEnUS },
};

function lookup(dict: Dict, path: string): string | undefined {
  let node: unknown = dict;
  for (const part of path.split('.')) {
    if (node && typeof node === 'object' && part in node) node = (node as Dict)[part];
    else return undefined;
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * Fills `{{name}}` with a parameter, and `{{t:name}}` with the translation of the key the
 * parameter holds (a word that differs by language, e.g. which period a cap counts).
 */
function interpolate(lang: Language, text: string, params: Record<string, string | number>): string {
  return text.replace(/\{\{(t:)?(\w+)\}\}/g, (_, nested: string | undefined, k: string) => {
    const value = String(params[k] ?? '');
    return nested && value ? translate(lang, value) : value;
  });
}

/**
 * Translates `namespace.key.path` (namespaces: errors, validation, server).
 * Unknown keys come back unchanged so a missing translation is visible, not silent.
 */
export function translate(lang: Language, key: string, params: Record<string, string | number> = {}): string {
  const dot = key.indexOf('.');
  const ns = key.slice(0, dot) as keyof (typeof DICTS)[Language];
  const dict = DICTS[lang][ns];
  const text = dict ? lookup(dict, key.slice(dot + 1)) : undefined;
  return text === undefined ? key : interpolate(lang, text, params);
}

export function isTranslationKey(lang: Language, key: string): boolean {
  return translate(lang, key) !== key;
}

export { pickLanguage };
