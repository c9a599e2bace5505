import { errorsEnUS, errorsZhCN, type Language, validationEnUS, validationZhCN } from '@aiplatform/contracts';
import authEnUS from './locales/en-US/auth.json';
import commonEnUS from './locales/en-US/common.json';
import authZhCN from './locales/zh-CN/auth.json';
import commonZhCN from './locales/zh-CN/common.json';

/**
 * Namespaces every screen needs, the login page included. `errors` and `validation` come
 * from contracts: the keys the server answers with.
 */
export const CORE_NAMESPACES = ['common', 'auth', 'errors', 'validation'] as const;
export type CoreNamespace = (typeof CORE_NAMESPACES)[number];
export const DEFAULT_NAMESPACE: CoreNamespace = 'common';

export const coreResources: Record<Language, Record<CoreNamespace, object>> = {
  'zh-CN': { common: commonZhCN, auth: authZhCN, errors: errorsZhCN, validation: validationZhCN },
  'en-US': { common: commonEnUS, auth: authEnUS, errors: errorsEnUS, validation: validationEnUS },
};
