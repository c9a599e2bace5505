import { Button, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

interface QuestionEditorProps {
  initial: string;
  onSend: (text: string) => void;
  onCancel: () => void;
}

/** Edits a sent question in place; sending it replaces the question and what followed. */
export function QuestionEditor({ initial, onSend, onCancel }: QuestionEditorProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(initial);
  return (
    <div className="chat-question-editor">
      <Input.TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        autoSize={{ minRows: 2, maxRows: 10 }}
        autoFocus
        aria-label={t('chat:message.edit')}
        data-testid="message-edit-input"
      />
      <div className="chat-question-editor-actions">
        <Button size="small" onClick={onCancel} data-testid="message-edit-cancel">
          {t('chat:message.editCancel')}
        </Button>
        <Button
          size="small"
          type="primary"
          disabled={!text.trim()}
          onClick={() => onSend(text)}
          data-testid="message-edit-send"
        >
          {t('chat:message.editSend')}
        </Button>
      </div>
    </div>
  );
}
