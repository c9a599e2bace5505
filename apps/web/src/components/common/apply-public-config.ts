import type { PublicSystemConfig } from '@aiplatform/contracts';
import { safeUrl } from './safe-url';

const CSS_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** A colour value without anything that could close the declaration or load a resource. */
const CSS_COLOR = /^[#a-zA-Z0-9(),.%\s-]{1,64}$/;

/** Theme colours become `--color-<key>` variables; chat font settings `--chat-font-*`. */
export function applyThemeVariables(config: PublicSystemConfig, root: HTMLElement = document.documentElement): void {
  for (const [key, value] of Object.entries(config.theme.colors)) {
    if (CSS_NAME.test(key) && CSS_COLOR.test(value)) root.style.setProperty(`--color-${key}`, value.trim());
  }
  if (config.chat.font_family.trim()) root.style.setProperty('--chat-font-family', config.chat.font_family);
  if (config.chat.font_size > 0) root.style.setProperty('--chat-font-size', `${config.chat.font_size}px`);
}

/** Points the page icon at the configured favicon, when it is a safe URL. */
export function applyFavicon(favicon: string): void {
  const href = safeUrl(favicon);
  if (!href) return;
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  link.removeAttribute('type');
  link.href = href;
}

/** antd's primary colour follows `theme.colors.primary` when it is a hex colour. */
export function primaryColorOf(config: PublicSystemConfig): string | undefined {
  const primary = config.theme.colors.primary?.trim();
  return primary && /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(primary) ? primary : undefined;
}
