import type { Role } from '@aiplatform/contracts';
import { Space, Tag } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResolvedTheme } from '../../theme/theme-mode';
import { useResolvedTheme } from '../../theme/theme-store';
import { groupDisplayName } from './group-name';
import { ROLE_COLORS, ROLE_LABEL_KEYS } from './labels';

/*
 * How a user's role and group look wherever they are shown: the profile, the dashboard and
 * the administration screens.
 */

/**
 * antd writes a coloured tag's text in step 7 of its palette, below 4.5:1 on the tag's light
 * background for these colours; a darker step of the same hue reaches it. (The dark theme's
 * tags write light text on a dark background and need no help.)
 */
const DARKER_TAG_TEXT: Record<string, string> = { green: '#237804', gold: '#874d00', orange: '#ad4e00' };

export function tagStyle(color: string, theme: ResolvedTheme): CSSProperties | undefined {
  const text = theme === 'light' ? DARKER_TAG_TEXT[color] : undefined;
  return text ? { color: text } : undefined;
}

export function RoleTag({ role }: { role: Role }) {
  const { t } = useTranslation();
  const color = ROLE_COLORS[role];
  const theme = useResolvedTheme();
  return (
    <Tag color={color} style={tagStyle(color, theme)}>
      {t(ROLE_LABEL_KEYS[role])}
    </Tag>
  );
}

/**
 * A group's name after a dot in its colour (the default group's seed name in the viewer's
 * language); users without a group show the translated "no group".
 */
export function GroupLabel({ name, color }: { name: string | null; color: string | null }) {
  const { t } = useTranslation();
  return (
    <Space size={6}>
      <span
        aria-hidden
        style={{
          display: 'inline-block',
          width: 10,
          height: 10,
          borderRadius: '50%',
          background: color ?? 'var(--border-strong)',
        }}
      />
      <span>{groupDisplayName(name, t) ?? t('common:noGroup')}</span>
    </Space>
  );
}
