import { Alert, Button, Checkbox, Empty, Flex, Input, Modal, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOverlaySize } from '../shared/use-overlay-size';
import type { Discovered } from './use-discover-models';

interface DiscoverModelsModalProps {
  found: Discovered | null;
  /** Model ids already in the list (cannot be added twice). */
  existing: ReadonlySet<string>;
  creating: boolean;
  onClose: () => void;
  /** Puts the one chosen id into the form's model id. */
  onUseName: (id: string) => void;
  onCreate: (ids: string[]) => void;
}

/** The ids the provider offers, to choose from: one fills the form, several are added at once. */
export function DiscoverModelsModal({
  found,
  existing,
  creating,
  onClose,
  onUseName,
  onCreate,
}: DiscoverModelsModalProps) {
  const { t } = useTranslation();
  const { modalWidth } = useOverlaySize(560);
  const [chosen, setChosen] = useState<string[]>([]);
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return (found?.ids ?? []).filter((id) => id.toLowerCase().includes(needle));
  }, [found, filter]);
  const canCreate = found?.canCreate ?? false;
  const [single] = chosen;
  return (
    <Modal
      open={found !== null}
      title={t('catalog:discover.title', { count: found?.ids.length ?? 0 })}
      onCancel={onClose}
      afterClose={() => {
        setChosen([]);
        setFilter('');
      }}
      width={modalWidth}
      footer={
        <Flex justify="end" gap={8} wrap>
          <Button onClick={onClose}>{t('common:cancel')}</Button>
          <Button
            disabled={chosen.length !== 1 || single === undefined}
            onClick={() => single !== undefined && onUseName(single)}
            data-testid="discover-use-name"
          >
            {t('catalog:discover.useName')}
          </Button>
          <Button
            type="primary"
            disabled={!canCreate || chosen.length === 0}
            loading={creating}
            onClick={() => onCreate(chosen)}
            data-testid="discover-create"
          >
            {t('catalog:discover.create', { count: chosen.length })}
          </Button>
        </Flex>
      }
      data-testid="discover-modal"
    >
      {!canCreate && (
        <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('catalog:discover.storedKeyHint')} />
      )}
      <Input.Search
        allowClear
        value={filter}
        onChange={(event) => setFilter(event.target.value)}
        placeholder={t('catalog:discover.filter')}
        aria-label={t('catalog:discover.filter')}
        style={{ marginBottom: 12 }}
        data-testid="discover-filter"
      />
      {shown.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('catalog:discover.noMatch')} />
      ) : (
        <div
          role="group"
          aria-label={t('catalog:discover.listLabel')}
          style={{ maxHeight: 320, overflowY: 'auto' }}
          data-testid="discover-list"
        >
          <Checkbox.Group value={chosen} onChange={(values) => setChosen(values)} style={{ display: 'block' }}>
            <Flex vertical gap={6}>
              {shown.map((id) => (
                <Checkbox key={id} value={id} disabled={existing.has(id)}>
                  <Typography.Text>{id}</Typography.Text>
                  {existing.has(id) && <Tag style={{ marginInlineStart: 8 }}>{t('catalog:discover.exists')}</Tag>}
                </Checkbox>
              ))}
            </Flex>
          </Checkbox.Group>
        </div>
      )}
    </Modal>
  );
}
