import type { UseQueryResult } from '@tanstack/react-query';
import { Drawer, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryErrorResult } from './QueryErrorResult';
import { useOverlaySize } from './use-overlay-size';

interface DetailDrawerProps<T> {
  open: boolean;
  onClose: () => void;
  /** Runs once the closing animation ended (the parent forgets the selected id then). */
  afterClose: () => void;
  detail: UseQueryResult<T>;
  titleOf: (item: T) => string;
  testId: string;
  children: (item: T) => ReactNode;
}

/** The drawer of one admin object: loading skeleton, error with retry, then its content. */
export function DetailDrawer<T>({
  open,
  onClose,
  afterClose,
  detail,
  titleOf,
  testId,
  children,
}: DetailDrawerProps<T>) {
  const { t } = useTranslation();
  const { drawerSize } = useOverlaySize();
  const item = detail.data;
  return (
    <Drawer
      open={open}
      onClose={onClose}
      afterOpenChange={(visible) => {
        if (!visible) afterClose();
      }}
      size={drawerSize}
      destroyOnHidden
      title={item ? <Typography.Text ellipsis>{titleOf(item)}</Typography.Text> : t('admin:detail.loadingTitle')}
      data-testid={testId}
    >
      {detail.isError && !item ? (
        <QueryErrorResult
          error={detail.error}
          onRetry={() => void detail.refetch()}
          testId={`${testId.replace(/-drawer$/, '')}-error`}
        />
      ) : item ? (
        children(item)
      ) : (
        <Skeleton active paragraph={{ rows: 8 }} />
      )}
    </Drawer>
  );
}
