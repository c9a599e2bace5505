import {
  ApiOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  BookOutlined,
  CloudOutlined,
  CodeOutlined,
  DatabaseOutlined,
  FileTextOutlined,
  GlobalOutlined,
  LinkOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/*
 * Modules name their menu icon by antd icon name. Importing every icon would bloat the
 * bundle, so a common set is offered and anything else falls back to the app icon.
 */
const ICONS: Record<string, ReactNode> = {
  ApiOutlined: <ApiOutlined />,
  AppstoreOutlined: <AppstoreOutlined />,
  BarChartOutlined: <BarChartOutlined />,
  BookOutlined: <BookOutlined />,
  CloudOutlined: <CloudOutlined />,
  CodeOutlined: <CodeOutlined />,
  DatabaseOutlined: <DatabaseOutlined />,
  FileTextOutlined: <FileTextOutlined />,
  GlobalOutlined: <GlobalOutlined />,
  LinkOutlined: <LinkOutlined />,
  ToolOutlined: <ToolOutlined />,
};

export function moduleIcon(name: string | null | undefined): ReactNode {
  return (name && ICONS[name]) ?? <AppstoreOutlined />;
}
