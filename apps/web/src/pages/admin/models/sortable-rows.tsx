import {
  type Announcements,
  DndContext,
  type DraggableAttributes,
  type DraggableSyntheticListeners,
  type DragEndEvent,
  KeyboardSensor,
  type Modifier,
  PointerSensor,
  type UniqueIdentifier,
  closestCenter,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { HolderOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { type CSSProperties, type HTMLAttributes, type ReactNode, createContext, useContext, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/*
 * Drag sorting of antd table rows with a handle (antd's documented pattern on dnd-kit):
 * each body row is sortable, and only its handle starts a drag, by pointer or keyboard
 * (Space or Enter to pick up, arrow keys to move, Space or Enter to drop, Escape to cancel).
 */

interface RowDragContext {
  setActivatorNodeRef?: (element: HTMLElement | null) => void;
  listeners?: DraggableSyntheticListeners;
  attributes?: DraggableAttributes;
}

const RowContext = createContext<RowDragContext>({});

/** The drag handle of the row it sits in; `label` names the row for screen readers. */
export function DragHandle({ label, testId }: { label: string; testId: string }) {
  const { setActivatorNodeRef, listeners, attributes } = useContext(RowContext);
  return (
    <Button
      type="text"
      size="small"
      icon={<HolderOutlined />}
      ref={setActivatorNodeRef}
      style={{ cursor: 'move', touchAction: 'none' }}
      {...attributes}
      {...listeners}
      aria-label={label}
      data-testid={testId}
    />
  );
}

interface RowProps extends HTMLAttributes<HTMLTableRowElement> {
  'data-row-key'?: string | number;
}

function DraggableRow({ rowKey, ...props }: RowProps & { rowKey: string | number }) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: String(rowKey),
    attributes: { roleDescription: t('catalog:sort.roleDescription') },
  });
  const style: CSSProperties = {
    ...props.style,
    transform: CSS.Translate.toString(transform),
    transition,
    ...(isDragging ? { position: 'relative', zIndex: 10, background: 'var(--surface-muted)' } : {}),
  };
  const context = useMemo(
    () => ({ setActivatorNodeRef, listeners, attributes }),
    [setActivatorNodeRef, listeners, attributes],
  );
  return (
    <RowContext.Provider value={context}>
      <tr {...props} data-row-key={rowKey} ref={setNodeRef} style={style} />
    </RowContext.Provider>
  );
}

/** The body row for `components.body.row`; rows without a key (the empty placeholder) stay plain. */
export function SortableRow(props: RowProps) {
  const rowKey = props['data-row-key'];
  if (rowKey === undefined) return <tr {...props} />;
  return <DraggableRow rowKey={rowKey} {...props} />;
}

/** Rows move up and down only. */
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

interface SortableRowsProps {
  ids: readonly number[];
  /** The row's name in what screen readers hear while it is dragged. */
  nameOf: (id: number) => string;
  onMove: (activeId: number, overId: number) => void;
  children: ReactNode;
}

/** Makes the rows of the table inside sortable; `onMove` gets the dragged row and the row it was dropped on. */
export function SortableRows({ ids, nameOf, onMove, children }: SortableRowsProps) {
  const { t } = useTranslation();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const items = useMemo(() => ids.map(String), [ids]);
  const announcements = useMemo<Announcements>(() => {
    const name = (id: UniqueIdentifier) => nameOf(Number(id));
    const position = (id: UniqueIdentifier) => items.indexOf(String(id)) + 1;
    return {
      onDragStart: ({ active }) => t('catalog:sort.pickedUp', { name: name(active.id), position: position(active.id) }),
      onDragOver: ({ active, over }) =>
        over ? t('catalog:sort.movedTo', { name: name(active.id), position: position(over.id) }) : undefined,
      onDragEnd: ({ active, over }) =>
        over
          ? t('catalog:sort.dropped', { name: name(active.id), position: position(over.id) })
          : t('catalog:sort.cancelled', { name: name(active.id) }),
      onDragCancel: ({ active }) => t('catalog:sort.cancelled', { name: name(active.id) }),
    };
  }, [items, nameOf, t]);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onMove(Number(active.id), Number(over.id));
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      modifiers={[verticalOnly]}
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t('catalog:sort.instructions') } }}
    >
      <SortableContext items={items} strategy={verticalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  );
}
