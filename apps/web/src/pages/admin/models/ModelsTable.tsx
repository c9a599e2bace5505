import type { AdminModel } from '@aiplatform/contracts';
import { Empty, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { SortableRow, SortableRows } from './sortable-rows';

interface ModelsTableProps {
  models: AdminModel[];
  columns: ColumnsType<AdminModel>;
  loading: boolean;
  /** Drag sorting; absent in read-only mode. */
  onMove?: (activeId: number, overId: number) => void;
}

/** The whole model list in menu order, its rows draggable by their handle when `onMove` is given. */
export function ModelsTable({ models, columns, loading, onMove }: ModelsTableProps) {
  const { t } = useTranslation();
  const nameOf = useCallback(
    (id: number) => models.find((model) => model.id === id)?.display_name ?? String(id),
    [models],
  );
  const table = (
    <Table<AdminModel>
      rowKey="id"
      columns={columns}
      dataSource={models}
      loading={loading}
      pagination={false}
      scroll={{ x: 'max-content' }}
      components={onMove ? { body: { row: SortableRow } } : undefined}
      locale={{ emptyText: <Empty description={t('catalog:models.empty')} data-testid="models-empty" /> }}
      data-testid="models-table"
    />
  );
  if (!onMove) return table;
  return (
    <SortableRows ids={models.map((model) => model.id)} nameOf={nameOf} onMove={onMove}>
      {table}
    </SortableRows>
  );
}
