import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { type ComponentProps, isValidElement, memo, useCallback, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExtraProps } from 'react-markdown';
import { useCopyText } from './use-copy-text';

function languageOf(children: unknown): string {
  if (!isValidElement<{ className?: unknown }>(children)) return '';
  const className = children.props.className;
  const match = typeof className === 'string' ? /language-([\w+#.-]+)/.exec(className) : null;
  return match?.[1] ?? '';
}

/**
 * The language and the copy button. Memoised: a code block still streaming renders again
 * on every frame, its bar only when the language changes.
 */
const CodeBar = memo(function CodeBar({ language, text }: { language: string; text: () => string }) {
  const { t } = useTranslation();
  const { copied, copy } = useCopyText('code');
  return (
    <div className="chat-code-bar">
      <span className="chat-code-language">{language}</span>
      <Button
        size="small"
        type="text"
        icon={copied ? <CheckOutlined /> : <CopyOutlined />}
        onClick={() => void copy(text())}
        data-testid="code-copy"
      >
        {copied ? t('chat:copy.copied') : t('chat:copy.copyCode')}
      </Button>
    </div>
  );
});

/** A fenced code block with its language and a copy button (copies the text, not the markup). */
export function CodeBlock({ children, node: _node, ...rest }: ComponentProps<'pre'> & ExtraProps) {
  const ref = useRef<HTMLPreElement>(null);
  const text = useCallback(() => ref.current?.textContent ?? '', []);
  const language = languageOf(children);
  // A display formula reaches here only while KaTeX is not there (its chunk still loading, or
  // failed): TeX source, not code. Drawn as a code block it showed a second copy button for
  // a moment in every answer with a formula, until KaTeX replaced it.
  if (language === 'math') return <pre {...rest}>{children}</pre>;
  return (
    <div className="chat-code">
      <CodeBar language={language} text={text} />
      <pre ref={ref} {...rest}>
        {children}
      </pre>
    </div>
  );
}
