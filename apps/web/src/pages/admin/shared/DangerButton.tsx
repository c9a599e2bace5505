import { Button, Modal } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface DangerButtonProps {
  /** The question the confirmation asks, and what the change does to people. */
  title: string;
  hint: string;
  /** The button's label, also the confirmation's. */
  label: string;
  onConfirm: () => Promise<unknown>;
  testId: string;
  icon?: ReactNode;
}

/** A small red button whose change is made only after a confirmation saying what it does. */
export function DangerButton({ title, hint, label, onConfirm, testId, icon }: DangerButtonProps) {
  const { t } = useTranslation();
  return (
    <Button
      size="small"
      danger
      icon={icon}
      onClick={() =>
        Modal.confirm({
          title,
          content: hint,
          okButtonProps: { danger: true },
          okText: label,
          cancelText: t('common:cancel'),
          onOk: onConfirm,
        })
      }
      data-testid={testId}
    >
      {label}
    </Button>
  );
}
