import { ClockCircleOutlined, FileTextOutlined, SendOutlined, StopOutlined } from '@ant-design/icons';
import { Button, Input } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../layout/use-is-mobile';
import { PromptPicker } from '../prompts/PromptPicker';
import { opensPicker } from '../prompts/prompt-fill';

/** Quick prompts insert a translated instruction in front of the text. */
const QUICK_PROMPTS = [
  { name: 'translate', label: 'chat:quickPrompts.translate', prefix: 'chat:quickPrompts.translatePrefix' },
  { name: 'summarize', label: 'chat:quickPrompts.summarize', prefix: 'chat:quickPrompts.summarizePrefix' },
  { name: 'explain', label: 'chat:quickPrompts.explain', prefix: 'chat:quickPrompts.explainPrefix' },
  { name: 'improve', label: 'chat:quickPrompts.improve', prefix: 'chat:quickPrompts.improvePrefix' },
] as const;

const DESKTOP_ROWS = { minRows: 3, maxRows: 6 };
const PHONE_ROWS = { minRows: 1, maxRows: 5 };

interface ChatInputProps {
  value: string;
  onChange: (value: string) => void;
  /**
   * An answer is being produced: stop is offered beside send, and the box stays open for
   * the next message, which "send" then queues.
   */
  busy: boolean;
  /** The box's message is queued until the current answer ends. */
  queued: boolean;
  onSend: () => void;
  onStop: () => void;
  /** Model picker, image, export and clear buttons. */
  toolbar: ReactNode;
  /** The attached images, when there are any. */
  attachment: ReactNode;
  /** Balance and price. */
  footer: ReactNode;
}

/**
 * The text box (3–6 rows; on phones 1–5, so the input area stays within a quarter of the screen;
 * Enter sends, Shift+Enter breaks the line), quick prompts and send/stop.
 */
export function ChatInput({
  value,
  onChange,
  busy,
  queued,
  onSend,
  onStop,
  toolbar,
  attachment,
  footer,
}: ChatInputProps) {
  const { t } = useTranslation();
  const box = useRef<TextAreaRef>(null);
  const isMobile = useIsMobile();
  const [picking, setPicking] = useState(false);

  const insertPrompt = (prefix: string) => {
    onChange(value.startsWith(prefix) ? value : prefix + value);
    box.current?.focus({ cursor: 'end' });
  };

  return (
    <div className="chat-input" data-testid="chat-input-area">
      <div className="chat-input-toolbar">{toolbar}</div>
      <div className="chat-quick-prompts" aria-label={t('chat:quickPrompts.label')}>
        <Button
          size="small"
          icon={<FileTextOutlined />}
          onClick={() => setPicking(true)}
          aria-keyshortcuts="/"
          data-testid="prompt-picker-button"
        >
          {t('chat:prompts.button')}
        </Button>
        {QUICK_PROMPTS.map((prompt) => (
          <Button
            key={prompt.name}
            size="small"
            onClick={() => insertPrompt(t(prompt.prefix))}
            data-testid={`quick-prompt-${prompt.name}`}
          >
            {t(prompt.label)}
          </Button>
        ))}
      </div>
      {attachment}
      <Input.TextArea
        ref={box}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="chat-input-box"
        autoSize={isMobile ? PHONE_ROWS : DESKTOP_ROWS}
        // On phones the short wording keeps the empty box at one line (it is sized to its placeholder).
        placeholder={
          isMobile
            ? t(busy ? 'chat:input.streamingShort' : 'chat:input.placeholderShort')
            : t(busy ? 'chat:input.streaming' : 'chat:input.placeholder')
        }
        aria-label={t('chat:input.placeholder')}
        onKeyDown={(event) => {
          // A slash typed into the empty box opens the templates instead of being typed.
          if (opensPicker(event.key, value)) {
            event.preventDefault();
            setPicking(true);
            return;
          }
          // 229 / isComposing: Enter that confirms an IME candidate (Chinese input) is not a send.
          if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing || event.keyCode === 229) return;
          event.preventDefault();
          onSend();
        }}
        data-testid="chat-input"
        // The skip link of the layout lands here: typing is what this screen is for.
        data-skip-target
      />
      <PromptPicker
        open={picking}
        onClose={() => setPicking(false)}
        onInsert={(text) => {
          setPicking(false);
          onChange(text);
          box.current?.focus({ cursor: 'end' });
        }}
      />
      <div className="chat-input-footer">
        <div className="chat-input-info">
          {/* A live region that is always present, so the queued note is announced when it appears. */}
          <div role="status">
            {queued && (
              <span className="chat-input-queued" data-testid="send-queued">
                <ClockCircleOutlined /> {t('chat:input.queued')}
              </span>
            )}
          </div>
          {footer}
        </div>
        <div className="chat-input-buttons">
          {busy && (
            <Button
              danger
              icon={<StopOutlined />}
              onClick={() => {
                onStop();
                // The stop button goes away with the answer: the focus goes on to the text box
                // rather than falling back to the page.
                box.current?.focus({ cursor: 'end' });
              }}
              data-testid="stop-button"
            >
              {t('chat:input.stop')}
            </Button>
          )}
          <Button type="primary" icon={<SendOutlined />} onClick={onSend} disabled={queued} data-testid="send-button">
            {t('chat:input.send')}
          </Button>
        </div>
      </div>
    </div>
  );
}
