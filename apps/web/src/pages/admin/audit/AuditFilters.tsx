import type { AuditListQuery } from '@aiplatform/contracts';
import { DatePicker, Flex, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { UserPicker } from '../shared/UserPicker';
import { AUDIT_TARGET_TYPES } from './audit-query';

type Filters = Omit<AuditListQuery, 'page' | 'limit'>;

const TARGET_TYPE_KEYS: Record<(typeof AUDIT_TARGET_TYPES)[number], string> = {
  user: 'admin:audit.targets.user',
  group: 'admin:audit.targets.group',
};

interface AuditFiltersProps {
  value: AuditListQuery;
  onChange: (filters: Filters) => void;
}

/** Who, what, on which kind of object and when; they wrap onto several lines on narrow screens. */
export function AuditFilters({ value, onChange }: AuditFiltersProps) {
  const { t } = useTranslation();
  const { page: _page, limit: _limit, ...current } = value;
  const set = (change: Partial<Filters>) => {
    const next: Filters = { ...current, ...change };
    onChange(next);
  };
  return (
    <Flex wrap gap={8} style={{ marginBottom: 12 }}>
      <div style={{ width: 220, maxWidth: '100%' }}>
        <UserPicker
          value={value.actor_id ?? null}
          onChange={(actor_id) => set({ actor_id })}
          placeholder={t('admin:audit.filterActor')}
          allowClear
          testId="audit-filter-actor"
        />
      </div>
      <Input.Search
        allowClear
        defaultValue={value.action}
        placeholder={t('admin:audit.filterAction')}
        onSearch={(action) => set({ action: action.trim() || undefined })}
        style={{ width: 220, maxWidth: '100%' }}
        data-testid="audit-filter-action"
      />
      <Select<string>
        allowClear
        value={value.target_type}
        placeholder={t('admin:audit.filterTarget')}
        aria-label={t('admin:audit.filterTarget')}
        options={AUDIT_TARGET_TYPES.map((type) => ({ value: type, label: t(TARGET_TYPE_KEYS[type]) }))}
        onChange={(target_type) => set({ target_type })}
        style={{ width: 160 }}
        data-testid="audit-filter-target"
      />
      <DatePicker.RangePicker
        allowEmpty={[true, true]}
        format="YYYY-MM-DD"
        onChange={(_dates, [from, to]) => set({ from: from || undefined, to: to || undefined })}
        style={{ maxWidth: '100%' }}
        data-testid="audit-filter-dates"
      />
    </Flex>
  );
}
