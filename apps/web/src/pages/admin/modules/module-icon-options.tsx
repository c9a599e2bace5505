import { moduleIcon } from '../../../components/layout/module-icons';

/** The menu icons the side menu can draw (module-icons.tsx); any other name shows the app icon. */
export const MODULE_ICON_NAMES = [
  'AppstoreOutlined',
  'ApiOutlined',
  'BarChartOutlined',
  'BookOutlined',
  'CloudOutlined',
  'CodeOutlined',
  'DatabaseOutlined',
  'FileTextOutlined',
  'GlobalOutlined',
  'LinkOutlined',
  'ToolOutlined',
] as const;

/** Select options: each icon beside its name. */
export function moduleIconOptions() {
  return MODULE_ICON_NAMES.map((name) => ({
    value: name,
    label: (
      <span>
        <span aria-hidden style={{ marginInlineEnd: 8 }}>
          {moduleIcon(name)}
        </span>
        {name.replace(/Outlined$/, '')}
      </span>
    ),
  }));
}
