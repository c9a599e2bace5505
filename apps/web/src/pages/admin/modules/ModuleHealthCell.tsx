import type { AdminModule } from '@aiplatform/contracts';
import { ReloadOutlined } from '@ant-design/icons';
import { Button, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { formatDateTime } from '../../../components/common/format';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { HEALTH_COLORS, HEALTH_KEYS } from './module-labels';
import { moduleKeys } from './module-queries';

/** Up, down or unknown, with the latency and time of the last check; "check now" for those who may. */
export function ModuleHealthCell({ module, canCheck }: { module: AdminModule; canCheck: boolean }) {
  const { t, i18n } = useTranslation();
  const check = useAdminMutation({
    mutationFn: () => call('checkModuleHealth', { params: { id: module.id } }),
    invalidates: [moduleKeys.list],
    successText: (checked) =>
      t('catalog:modules.health.checkedDone', {
        name: checked.display_name,
        status: t(HEALTH_KEYS[checked.health_status]),
      }),
    failureKey: 'catalog:modules.health.checkFailed',
  });
  return (
    <Flex vertical gap={2} align="start" data-testid={`module-health-${module.id}`} data-status={module.health_status}>
      <Flex gap={4} align="center" wrap>
        <Tag color={HEALTH_COLORS[module.health_status]} style={{ marginInlineEnd: 0 }}>
          {t(HEALTH_KEYS[module.health_status])}
        </Tag>
        {module.health_latency_ms !== null && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('catalog:modules.health.latency', { latency: module.health_latency_ms })}
          </Typography.Text>
        )}
      </Flex>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {module.health_checked_at
          ? t('catalog:modules.health.checkedAt', { time: formatDateTime(module.health_checked_at, i18n.language) })
          : t('catalog:modules.health.neverChecked')}
      </Typography.Text>
      {canCheck && (
        <Button
          type="link"
          size="small"
          icon={<ReloadOutlined />}
          loading={check.isPending}
          onClick={() => check.mutate()}
          style={{ paddingInline: 0 }}
          aria-label={t('catalog:modules.health.checkLabel', { name: module.display_name })}
          data-testid={`module-check-${module.id}`}
        >
          {t('catalog:modules.health.check')}
        </Button>
      )}
    </Flex>
  );
}
