import { ModuleLetterIcon, moduleIcon } from '../../../components/layout/module-icons';

/** The menu icons the side menu can draw (module-icons.tsx); any other name shows the letter icon. */
export const MODULE_ICON_NAMES = [
  'AppstoreOutlined',
  'ApiOutlined',
  'BarChartOutlined',
  'BookOutlined',
  'CalendarOutlined',
  'CloudOutlined',
  'CodeOutlined',
  'CustomerServiceOutlined',
  'DatabaseOutlined',
  'ExperimentOutlined',
  'FileTextOutlined',
  'FolderOutlined',
  'GlobalOutlined',
  'LinkOutlined',
  'MailOutlined',
  'ReadOutlined',
  'RobotOutlined',
  'SafetyOutlined',
  'ShopOutlined',
  'ToolOutlined',
] as const;

/**
 * Select options: first the letter icon of the module's name (the default, stored as an
 * empty name), then each icon beside its name.
 */
export function moduleIconOptions(displayName: string, letterLabel: string) {
  return [
    {
      value: '',
      label: (
        <span>
          <span aria-hidden style={{ marginInlineEnd: 8 }}>
            <ModuleLetterIcon name={displayName || letterLabel} />
          </span>
          {letterLabel}
        </span>
      ),
    },
    ...MODULE_ICON_NAMES.map((name) => ({
      value: name,
      label: (
        <span>
          <span aria-hidden style={{ marginInlineEnd: 8 }}>
            {moduleIcon(name)}
          </span>
          {name.replace(/Outlined$/, '')}
        </span>
      ),
    })),
  ];
}
