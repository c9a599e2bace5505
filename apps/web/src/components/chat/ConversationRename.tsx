import { UpdateConversationBodySchema } from '@aiplatform/contracts';
import { Input } from 'antd';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessageKey } from '../../i18n';

/** What a rename came to; `problem` is the text to show beside the title box. */
export interface RenameOutcome {
  saved: boolean;
  problem?: string;
}

interface ConversationRenameProps {
  /** The stored title ('' while the conversation is unnamed). */
  title: string;
  /** The name of the conversation as the sidebar shows it, for the box's label. */
  shownTitle: string;
  onSave: (title: string) => Promise<RenameOutcome>;
  /** Editing ended (saved, cancelled or left unchanged). */
  onDone: () => void;
}

/** The server's own rule for a new title, so the same translated message shows before any request. */
function titleProblem(title: string): string | null {
  const parsed = UpdateConversationBodySchema.shape.title.safeParse(title);
  const key = parsed.success ? null : parsed.error.issues[0]?.message;
  return key ? translateMessageKey(key) : null;
}

/**
 * The title box that replaces a sidebar row while it is renamed: Enter saves, Escape
 * cancels, leaving the box saves a changed title. A refused title keeps the box open
 * with the reason under it.
 */
export function ConversationRename({ title, shownTitle, onSave, onDone }: ConversationRenameProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState(title || shownTitle);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Set once editing has ended, so the blur of a box being removed does not save again.
  const finished = useRef(false);
  const hintId = useId();
  const problemId = useId();

  const finish = () => {
    finished.current = true;
    onDone();
  };

  const save = async () => {
    if (saving || finished.current) return;
    const next = value.trim();
    if (next === title) return finish();
    const local = titleProblem(next);
    if (local) return setProblem(local);
    setSaving(true);
    const outcome = await onSave(next);
    setSaving(false);
    if (outcome.saved) finish();
    else setProblem(outcome.problem ?? null);
  };

  return (
    <div className="chat-conv-rename">
      <Input
        autoFocus
        value={value}
        readOnly={saving}
        status={problem ? 'error' : undefined}
        aria-label={t('chat:sidebar.renameLabel', { title: shownTitle })}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${problemId} ${hintId}` : hintId}
        onFocus={(event) => event.target.select()}
        onChange={(event) => {
          setValue(event.target.value);
          setProblem(null);
        }}
        onKeyDown={(event) => {
          if (event.nativeEvent.isComposing) return;
          if (event.key === 'Enter') {
            event.preventDefault();
            void save();
          } else if (event.key === 'Escape') {
            // Only the edit is cancelled, not the phone's sidebar drawer around it.
            event.preventDefault();
            event.stopPropagation();
            finish();
          }
        }}
        onBlur={() => void save()}
        data-testid="conversation-rename-input"
      />
      {problem && (
        <div id={problemId} role="alert" className="chat-conv-rename-problem" data-testid="conversation-rename-error">
          {problem}
        </div>
      )}
      <div id={hintId} className="visually-hidden">
        {t('chat:sidebar.renameHint')}
      </div>
    </div>
  );
}
