import type { PublicSystemConfig } from '@aiplatform/contracts';
import { accessiblePrimary } from './accessible-theme';
import { ownImageUrl } from './image-source';

const CSS_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** A colour value without anything that could close the declaration or load a resource. */
const CSS_COLOR = /^[#a-zA-Z0-9(),.%\s-]{1,64}$/;

/** Variables set by the previous call, so a colour removed in the settings stops applying. */
const appliedColors = new WeakMap<HTMLElement, Set<string>>();

/**
 * Theme colours become `--color-<key>` variables; chat font settings `--chat-font-*`.
 * Runs again whenever the configuration is re-read (e.g. after an administrator saved it).
 */
export function applyThemeVariables(config: PublicSystemConfig, root: HTMLElement = document.documentElement): void {
  const previous = appliedColors.get(root) ?? new Set<string>();
  const current = new Set<string>();
  for (const [key, value] of Object.entries(config.theme.colors)) {
    if (!CSS_NAME.test(key) || !CSS_COLOR.test(value)) continue;
    // antd's default blue fails AA contrast; the same darker step as the antd theme stands in.
    root.style.setProperty(`--color-${key}`, key === 'primary' ? accessiblePrimary(value.trim()) : value.trim());
    current.add(`--color-${key}`);
  }
  for (const name of previous) if (!current.has(name)) root.style.removeProperty(name);
  appliedColors.set(root, current);
  if (config.chat.font_family.trim()) root.style.setProperty('--chat-font-family', config.chat.font_family);
  else root.style.removeProperty('--chat-font-family');
  if (config.chat.font_size > 0) root.style.setProperty('--chat-font-size', `${config.chat.font_size}px`);
  else root.style.removeProperty('--chat-font-size');
}

/** The icon of index.html, put back when the configured favicon is removed. */
let defaultFavicon: { href: string; type: string | null } | null = null;

/** Points the page icon at the configured favicon, when it is a safe URL on this site; otherwise at the built-in one. */
export function applyFavicon(favicon: string): void {
  const href = ownImageUrl(favicon);
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (link && !defaultFavicon)
    defaultFavicon = { href: link.getAttribute('href') ?? '', type: link.getAttribute('type') };
  if (!href) {
    if (link && defaultFavicon) {
      link.href = defaultFavicon.href;
      if (defaultFavicon.type) link.type = defaultFavicon.type;
    }
    return;
  }
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
