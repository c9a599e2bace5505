import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

interface AdminPageHeaderProps {
  title: string;
  /** Page-wide actions (create, export, …); they wrap below the title on narrow screens. */
  actions?: ReactNode;
}

export function AdminPageHeader({ title, actions }: AdminPageHeaderProps) {
  return (
    <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      {actions && (
        <Flex wrap gap={8}>
          {actions}
        </Flex>
      )}
    </Flex>
  );
}
