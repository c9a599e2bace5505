import {
  ApiOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  BookOutlined,
  CalendarOutlined,
  CloudOutlined,
  CodeOutlined,
  CustomerServiceOutlined,
  DatabaseOutlined,
  ExperimentOutlined,
  FileTextOutlined,
  FolderOutlined,
  GlobalOutlined,
  LinkOutlined,
  MailOutlined,
  ReadOutlined,
  RobotOutlined,
  SafetyOutlined,
  ShopOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import { moduleLetter, moduleLetterColour } from './module-letter';

/*
 * Modules name their menu icon by antd icon name. Importing every icon would bloat the
 * bundle, so a common set is offered; a module without one (or with a name outside the
 * set) gets a letter icon: the first letter of its name on a colour of its own, so
 * modules stay distinct in the narrow menu.
 */
const ICONS: Record<string, ReactNode> = {
  ApiOutlined: <ApiOutlined />,
  AppstoreOutlined: <AppstoreOutlined />,
  BarChartOutlined: <BarChartOutlined />,
  BookOutlined: <BookOutlined />,
  CalendarOutlined: <CalendarOutlined />,
  CloudOutlined: <CloudOutlined />,
  CodeOutlined: <CodeOutlined />,
  CustomerServiceOutlined: <CustomerServiceOutlined />,
  DatabaseOutlined: <DatabaseOutlined />,
  ExperimentOutlined: <ExperimentOutlined />,
  FileTextOutlined: <FileTextOutlined />,
  FolderOutlined: <FolderOutlined />,
  GlobalOutlined: <GlobalOutlined />,
  LinkOutlined: <LinkOutlined />,
  MailOutlined: <MailOutlined />,
  ReadOutlined: <ReadOutlined />,
  RobotOutlined: <RobotOutlined />,
  SafetyOutlined: <SafetyOutlined />,
  ShopOutlined: <ShopOutlined />,
  ToolOutlined: <ToolOutlined />,
};

/** Whether the menu draws this icon name (otherwise the module gets its letter icon). */
export function isModuleIconName(name: string | null | undefined): boolean {
  return !!name && name in ICONS;
}

/** The module's letter icon: decorative, its name is the menu entry's text. */
export function ModuleLetterIcon({ name, colourKey }: { name: string; colourKey?: string }) {
  return (
    <span
      className="anticon module-letter-icon"
      aria-hidden
      style={{ backgroundColor: moduleLetterColour(colourKey ?? name) }}
      data-testid="module-letter-icon"
    >
      {moduleLetter(name)}
    </span>
  );
}

/** The module's chosen icon, or its letter icon when it has none the menu can draw. */
export function moduleIcon(name: string | null | undefined, displayName = '', colourKey?: string): ReactNode {
  if (name && ICONS[name]) return ICONS[name];
  return <ModuleLetterIcon name={displayName} {...(colourKey ? { colourKey } : {})} />;
}
