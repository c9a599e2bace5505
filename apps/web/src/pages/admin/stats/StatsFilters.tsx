import { STATS_RANGES } from '@aiplatform/contracts';
import { Flex, Segmented, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { StatsQuery, StatsRange } from './stats-query';

interface StatsFiltersProps {
  value: StatsQuery;
  onChange: (next: StatsQuery) => void;
  /** Only those who see every group choose one; a group administrator always sees their own. */
  groupOptions: { value: number; label: string }[] | null;
}

/** The range (7, 30 or 90 days) and, for those who see every group, one group or all. */
export function StatsFilters({ value, onChange, groupOptions }: StatsFiltersProps) {
  const { t } = useTranslation();
  return (
    <Flex wrap gap={8} align="center">
      <Segmented<StatsRange>
        value={value.days}
        options={STATS_RANGES.map((days) => ({
          value: days,
          label: <span data-testid={`stats-range-${days}`}>{t('stats:range.days', { days })}</span>,
        }))}
        onChange={(days) => onChange({ ...value, days })}
        aria-label={t('stats:range.label')}
        data-testid="stats-range"
      />
      {groupOptions && (
        <Select<number>
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          value={value.groupId}
          placeholder={t('stats:group.all')}
          aria-label={t('stats:group.label')}
          options={groupOptions}
          onChange={(groupId) => onChange({ days: value.days, ...(groupId ? { groupId } : {}) })}
          style={{ width: 200, maxWidth: '100%' }}
          data-testid="stats-group"
        />
      )}
    </Flex>
  );
}
