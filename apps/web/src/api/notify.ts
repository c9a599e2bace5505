import type { MessageInstance } from 'antd/es/message/interface';
import { i18n } from '../i18n';
import type { ErrorNotice } from './error-notice';

type MessageApi = MessageInstance;
type Navigate = (path: string) => void;

/*
 * The API layer runs outside React, yet must toast and navigate. The app binds antd's
 * message API (with the app's theme and locale) and the router's navigate here on mount.
 */
let messageApi: MessageApi | null = null;
let navigateFn: Navigate = (path) => window.location.assign(path);

export function bindMessageApi(api: MessageApi): void {
  messageApi = api;
}

export function bindNavigate(navigate: Navigate): void {
  navigateFn = navigate;
}

export function navigateTo(path: string): void {
  navigateFn(path);
}

type Level = 'error' | 'warning' | 'success' | 'info';

/** Shows a toast; `key` lets a later toast replace or remove this one. */
export function toast(level: Level, content: string, options: { duration?: number; key?: string } = {}): void {
  if (!messageApi) {
    console.warn(`[${level}] ${content}`);
    return;
  }
  void messageApi.open({ type: level, content, ...options });
}

export function dismissToast(key: string): void {
  messageApi?.destroy(key);
}

export function noticeText(notice: NonNullable<ErrorNotice>): string {
  return 'text' in notice ? notice.text : i18n.t(notice.key);
}
