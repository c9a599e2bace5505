import { HistoryOutlined, MessageOutlined, RocketOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { Card } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useNavItems } from '../../components/layout/use-nav-items';
import { useAbilities } from '../../stores/abilities';

interface Shortcut {
  to: string;
  icon: ReactNode;
  label: string;
  testId: string;
}

/**
 * The first administration screen this user may open, taken from the menu itself so the
 * shortcut and the menu never disagree about who may go where.
 */
function useAdminEntry(): string | null {
  const { targets } = useNavItems();
  for (const [key, target] of targets) {
    if (key.startsWith('/admin/') && 'path' in target) return target.path;
  }
  return null;
}

/** The places a user most often goes from the dashboard. */
export function QuickStartCard() {
  const { t } = useTranslation();
  const mayChat = useAbilities().pages.chat;
  const adminPath = useAdminEntry();

  const shortcuts: Shortcut[] = [
    ...(mayChat
      ? [{ to: '/chat', icon: <MessageOutlined />, label: t('dashboard:quickStart.newChat'), testId: 'quick-chat' }]
      : []),
    { to: '/profile', icon: <UserOutlined />, label: t('dashboard:quickStart.profile'), testId: 'quick-profile' },
    {
      to: '/profile?tab=credits',
      icon: <HistoryOutlined />,
      label: t('dashboard:quickStart.creditHistory'),
      testId: 'quick-credit-history',
    },
    ...(adminPath
      ? [{ to: adminPath, icon: <TeamOutlined />, label: t('dashboard:quickStart.admin'), testId: 'quick-admin' }]
      : []),
  ];

  return (
    <Card
      title={
        <span>
          <RocketOutlined /> {t('dashboard:quickStart.title')}
        </span>
      }
      data-testid="quick-start"
    >
      <nav aria-label={t('dashboard:quickStart.title')}>
        <ul className="dashboard-shortcuts">
          {shortcuts.map((shortcut) => (
            <li key={shortcut.testId}>
              <Link to={shortcut.to} className="dashboard-shortcut" data-testid={shortcut.testId}>
                <span className="dashboard-shortcut-icon" aria-hidden>
                  {shortcut.icon}
                </span>
                <span>{shortcut.label}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </Card>
  );
}
