import type { ColumnType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { StatusTag } from '../shared/AdminTags';
import { GroupAvailabilityTags } from './GroupAvailabilityField';

/** The groups an item is granted to ("All groups" when none), for the model and module lists alike. */
export function groupsColumn<T extends { group_ids: number[] }>(
  t: TFunction,
  groupNames: Map<number, string>,
): ColumnType<T> {
  return {
    key: 'groups',
    title: t('catalog:columns.groups'),
    width: 180,
    render: (_, item) => <GroupAvailabilityTags groupIds={item.group_ids} names={groupNames} />,
  };
}

/** On or off: a switch for those who may change the item, a status tag for readers. */
export function activeColumn<T extends { is_active: boolean }>(
  t: TFunction,
  readOnly: boolean,
  switchOf: (item: T) => ReactNode,
): ColumnType<T> {
  return {
    key: 'active',
    title: t('catalog:columns.active'),
    width: 100,
    render: (_, item) => (readOnly ? <StatusTag status={item.is_active ? 'active' : 'inactive'} /> : switchOf(item)),
  };
}
