import type { AdminUser, UserAbility } from '@aiplatform/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callPage } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { formatNumber } from '../../../components/common/format';
import { useDebouncedValue } from './use-debounced-value';

const PICKER_PAGE_SIZE = 20;

interface UserPickerProps {
  /** Set by a surrounding Form.Item, so that its label names the select. */
  id?: string;
  value?: number | null;
  onChange?: (id: number | undefined) => void;
  /** A user chosen elsewhere, shown by name even when not on the first page of results. */
  selectedUser?: AdminUser | undefined;
  /** The chosen user's row as listed (for showing their balance beside the form). */
  onSelectUser?: (user: AdminUser | undefined) => void;
  /** Only members of this group are offered. */
  groupId?: number;
  /** Only users whose abilities (the server's word) allow this are offered. */
  ableTo?: UserAbility;
  /** Shows each user's balance beside the name (for moving credits). */
  showBalance?: boolean;
  placeholder?: string;
  allowClear?: boolean;
  testId?: string;
}

/** A searchable user select backed by the user list (username, email or phone). */
export function UserPicker({
  id,
  value,
  onChange,
  onSelectUser,
  selectedUser,
  groupId,
  ableTo,
  showBalance,
  placeholder,
  allowClear,
  testId = 'user-picker',
}: UserPickerProps) {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim());
  const listQuery = { page: 1, limit: PICKER_PAGE_SIZE, search: debounced, group_id: groupId };
  const query = useQuery({
    queryKey: adminKeys.userList(listQuery),
    queryFn: () => callPage('listUsers', { query: listQuery }),
    placeholderData: keepPreviousData,
  });
  const listed = (query.data?.items ?? []).filter((user) => !ableTo || user.abilities[ableTo]);
  const users = selectedUser && !listed.some((u) => u.id === selectedUser.id) ? [selectedUser, ...listed] : listed;
  const options = users.map((user) => ({
    value: user.id,
    label: showBalance
      ? t('admin:picker.userWithBalance', {
          name: user.username,
          balance: formatNumber(user.credits_stats.remaining, i18n.language),
        })
      : t('admin:picker.user', { name: user.username, email: user.email }),
  }));
  return (
    <Select<number>
      showSearch={{ filterOption: false, onSearch: setSearch }}
      value={value ?? undefined}
      onChange={(id) => {
        onChange?.(id);
        onSelectUser?.(users.find((user) => user.id === id));
      }}
      options={options}
      loading={query.isFetching}
      placeholder={placeholder ?? t('admin:picker.placeholder')}
      {...(id ? { id } : { 'aria-label': placeholder ?? t('admin:picker.placeholder') })}
      notFoundContent={query.isFetching ? t('common:loading') : t('admin:picker.empty')}
      allowClear={allowClear}
      style={{ width: '100%' }}
      data-testid={testId}
    />
  );
}
