import { Menu } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { openModuleInNewTab } from './open-module-tab';
import { useNavItems } from './use-nav-items';

interface NavMenuProps {
  /** Icons only, labels in tooltips (the narrow desktop sidebar). */
  collapsed: boolean;
  /** Called after a choice, e.g. to close the mobile drawer. */
  onNavigate?: () => void;
}

/** The main menu; modules opening in a new tab leave the current page as it is. */
export function NavMenu({ collapsed, onNavigate }: NavMenuProps) {
  const { items, targets } = useNavItems();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const selected = [...targets.keys()].find((key) => pathname === key || pathname.startsWith(`${key}/`));

  return (
    <Menu
      mode="inline"
      inlineCollapsed={collapsed}
      items={items}
      selectedKeys={selected ? [selected] : []}
      defaultOpenKeys={collapsed ? [] : ['admin']}
      style={{ borderInlineEnd: 'none' }}
      onClick={({ key }) => {
        const target = targets.get(key);
        if (!target) return;
        if ('newTabModule' in target) void openModuleInNewTab(target.newTabModule);
        else void navigate(target.path);
        onNavigate?.();
      }}
    />
  );
}
