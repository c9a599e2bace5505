import type { Group } from '@aiplatform/contracts';
import { Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { formatNumber } from '../../../components/common/format';
import { StatusTag } from '../shared/AdminTags';
import { GroupLabel } from '../../../components/common/UserTags';
import { memberCountText } from './group-format';

/** Columns of the group list; `actions` renders the row's buttons. */
export function groupColumns(
  t: TFunction,
  language: string,
  isMobile: boolean,
  actions: (group: Group) => ReactNode,
): ColumnsType<Group> {
  const number = (value: number) => formatNumber(value, language);
  return [
    {
      key: 'name',
      title: t('admin:groups.columns.name'),
      width: 220,
      render: (_, group) => (
        <div>
          <GroupLabel name={group.name} color={group.color} />
          {group.description && (
            <div>
              <Typography.Text type="secondary" ellipsis style={{ fontSize: 12, maxWidth: 200 }}>
                {group.description}
              </Typography.Text>
            </div>
          )}
        </div>
      ),
    },
    {
      key: 'members',
      title: t('admin:groups.columns.members'),
      width: 130,
      render: (_, group) => memberCountText(t, group),
    },
    {
      key: 'pool',
      title: t('admin:groups.columns.pool'),
      width: 120,
      align: 'right',
      render: (_, g) => number(g.credits_pool),
    },
    {
      key: 'poolUsed',
      title: t('admin:groups.columns.poolUsed'),
      width: 120,
      align: 'right',
      render: (_, g) => number(g.credits_pool_used),
    },
    {
      key: 'poolRemaining',
      title: t('admin:groups.columns.poolRemaining'),
      width: 120,
      align: 'right',
      render: (_, g) => number(g.credits_pool_remaining),
    },
    {
      key: 'avgCredits',
      title: t('admin:groups.columns.avgCredits'),
      width: 130,
      align: 'right',
      render: (_, g) => number(Math.round(g.avg_credits_used)),
    },
    {
      key: 'avgTokens',
      title: t('admin:groups.columns.avgTokens'),
      width: 130,
      align: 'right',
      render: (_, g) => number(Math.round(g.avg_tokens_used)),
    },
    {
      key: 'status',
      title: t('admin:groups.columns.status'),
      width: 90,
      render: (_, g) => <StatusTag status={g.status} />,
    },
    {
      key: 'actions',
      title: t('admin:users.columns.actions'),
      width: 250,
      fixed: isMobile ? undefined : 'right',
      render: (_, group) => actions(group),
    },
  ];
}
