import { type AdminUserListQuery, ROLES, type Role } from '@aiplatform/contracts';
import { Flex, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { ROLE_LABEL_KEYS } from '../../../components/common/labels';
import { STATUS_KEYS } from '../shared/labels';

type Filters = Pick<AdminUserListQuery, 'search' | 'role' | 'status' | 'group_id'>;

interface UserFiltersProps {
  value: AdminUserListQuery;
  onChange: (filters: Filters) => void;
  groupOptions: { value: number; label: string }[];
  /** Group filtering makes sense only to those who see more than one group. */
  showGroupFilter: boolean;
}

/** Search and filters of the user list; they wrap onto several lines on narrow screens. */
export function UserFilters({ value, onChange, groupOptions, showGroupFilter }: UserFiltersProps) {
  const { t } = useTranslation();
  const current: Filters = { search: value.search, role: value.role, status: value.status, group_id: value.group_id };
  return (
    <Flex wrap gap={8} style={{ marginBottom: 12 }}>
      <Input.Search
        allowClear
        defaultValue={value.search}
        placeholder={t('admin:users.searchPlaceholder')}
        onSearch={(search) => onChange({ ...current, search: search.trim() || undefined })}
        style={{ width: 280, maxWidth: '100%' }}
        data-testid="user-search"
      />
      <Select<Role>
        allowClear
        value={value.role}
        placeholder={t('admin:users.filterRole')}
        aria-label={t('admin:users.filterRole')}
        options={ROLES.map((role) => ({ value: role, label: t(ROLE_LABEL_KEYS[role]) }))}
        onChange={(role) => onChange({ ...current, role })}
        style={{ width: 160 }}
        data-testid="user-filter-role"
      />
      <Select<'active' | 'inactive'>
        allowClear
        value={value.status}
        placeholder={t('admin:users.filterStatus')}
        aria-label={t('admin:users.filterStatus')}
        options={(['active', 'inactive'] as const).map((status) => ({ value: status, label: t(STATUS_KEYS[status]) }))}
        onChange={(status) => onChange({ ...current, status })}
        style={{ width: 140 }}
        data-testid="user-filter-status"
      />
      {showGroupFilter && (
        <Select<number>
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          value={value.group_id}
          placeholder={t('admin:users.filterGroup')}
          aria-label={t('admin:users.filterGroup')}
          options={groupOptions}
          onChange={(group_id) => onChange({ ...current, group_id })}
          style={{ width: 180 }}
          data-testid="user-filter-group"
        />
      )}
    </Flex>
  );
}
