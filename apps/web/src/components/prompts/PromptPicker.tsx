import type { PromptTemplate } from '@aiplatform/contracts';
import { SearchOutlined } from '@ant-design/icons';
import { Empty, Input, type InputRef, Modal, Spin } from 'antd';
import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PromptFillForm } from './PromptFillForm';
import { PromptScopeTag } from './PromptScopeTag';
import { usePrompts } from './use-prompts';
import './prompts.css';

interface PromptPickerProps {
  open: boolean;
  onClose: () => void;
  /** The finished text, for the composer (never sent from here). */
  onInsert: (text: string) => void;
}

/**
 * The composer's template picker: a searchable list (arrow keys move, Enter chooses, Escape
 * closes); a template with variables asks for them in a small form first.
 */
export function PromptPicker(props: PromptPickerProps) {
  // Mounted only while open, so every opening starts with an empty search at the top of the list.
  return props.open ? <PickerDialog {...props} /> : null;
}

function PickerDialog({ open, onClose, onInsert }: PromptPickerProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [active, setActive] = useState(0);
  const [chosen, setChosen] = useState<PromptTemplate | null>(null);
  const query = search.trim() ? { search: search.trim() } : {};
  const list = usePrompts(query);
  const items = list.data ?? [];
  const listId = useId();
  const searchBox = useRef<InputRef>(null);

  const choose = (prompt: PromptTemplate | undefined) => {
    if (!prompt) return;
    if (prompt.variables.length === 0) onInsert(prompt.content);
    else setChosen(prompt);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (items.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + items.length) % items.length);
    } else if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
      event.preventDefault();
      choose(items[active]);
    }
  };
  const optionId = (i: number) => `${listId}-option-${i}`;

  return (
    <Modal
      open={open}
      title={chosen ? chosen.title : t('chat:prompts.pickerTitle')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={560}
      // The dialog takes the focus when it opens; typing goes on in the search field.
      afterOpenChange={(opened) => opened && searchBox.current?.focus()}
    >
      {chosen ? (
        <PromptFillForm prompt={chosen} onBack={() => setChosen(null)} onDone={onInsert} />
      ) : (
        <>
          <Input
            ref={searchBox}
            autoFocus
            prefix={<SearchOutlined aria-hidden />}
            allowClear
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
            placeholder={t('chat:prompts.searchPlaceholder')}
            aria-label={t('chat:prompts.searchPlaceholder')}
            role="combobox"
            aria-expanded
            aria-controls={listId}
            aria-activedescendant={items.length > 0 ? optionId(active) : undefined}
            data-testid="prompt-picker-search"
          />
          {list.isPending ? (
            <Spin className="prompt-picker-loading" />
          ) : items.length === 0 ? (
            <Empty description={t('chat:prompts.empty')} />
          ) : (
            <ul id={listId} role="listbox" aria-label={t('chat:prompts.pickerTitle')} className="prompt-picker-list">
              {items.map((prompt, i) => (
                <li
                  key={prompt.id}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === active}
                  className={i === active ? 'prompt-picker-item is-active' : 'prompt-picker-item'}
                  onMouseEnter={() => setActive(i)}
                  onClick={() => choose(prompt)}
                  data-testid="prompt-picker-item"
                >
                  <span className="prompt-picker-title">{prompt.title}</span> <PromptScopeTag prompt={prompt} />
                  <span className="prompt-picker-preview">{prompt.content}</span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Modal>
  );
}
