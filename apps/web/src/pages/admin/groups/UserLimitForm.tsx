import type { Group } from '@aiplatform/contracts';
import { Button, Flex, InputNumber, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { useAdminMutation } from '../shared/use-admin-mutation';

/** The member limit: a number of places, or unlimited. */
export function UserLimitForm({ group }: { group: Group }) {
  const { t } = useTranslation();
  const [unlimited, setUnlimited] = useState(group.user_limit === null);
  const [limit, setLimit] = useState<number | null>(group.user_limit ?? Math.max(group.user_count, 1));
  const save = useAdminMutation({
    mutationFn: (user_limit: number | null) => call('setUserLimit', { params: { id: group.id }, body: { user_limit } }),
    invalidates: [adminKeys.groups],
    successText: (saved) =>
      saved.user_limit === null
        ? t('admin:groups.limitUnlimitedDone', { name: saved.name })
        : t('admin:groups.limitDone', { name: saved.name, limit: saved.user_limit }),
    failureKey: 'admin:groups.limitFailed',
  });
  const next = unlimited ? null : limit;
  return (
    <div data-testid="group-limit-form">
      <Flex gap={12} wrap align="center">
        <Switch
          checked={unlimited}
          onChange={setUnlimited}
          checkedChildren={t('admin:groups.unlimited')}
          unCheckedChildren={t('admin:groups.limited')}
          data-testid="group-limit-unlimited"
        />
        {!unlimited && (
          <InputNumber<number>
            min={1}
            max={1_000_000}
            precision={0}
            value={limit}
            onChange={setLimit}
            data-testid="group-limit-input"
          />
        )}
        <Button
          onClick={() => save.mutate(next)}
          loading={save.isPending}
          disabled={(!unlimited && limit === null) || next === group.user_limit}
          data-testid="group-limit-submit"
        >
          {t('admin:actions.save')}
        </Button>
      </Flex>
      {!unlimited && limit !== null && limit < group.user_count && (
        <Typography.Text type="warning" style={{ fontSize: 12 }}>
          {t('admin:groups.limitBelowCount', { count: group.user_count })}
        </Typography.Text>
      )}
    </div>
  );
}
