import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { type ComponentProps, isValidElement, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExtraProps } from 'react-markdown';
import { useCopyText } from './use-copy-text';

function languageOf(children: unknown): string {
  if (!isValidElement<{ className?: unknown }>(children)) return '';
  const className = children.props.className;
  const match = typeof className === 'string' ? /language-([\w+#.-]+)/.exec(className) : null;
  return match?.[1] ?? '';
}

/** A fenced code block with its language and a copy button (copies the text, not the markup). */
export function CodeBlock({ children, node: _node, ...rest }: ComponentProps<'pre'> & ExtraProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLPreElement>(null);
  const { copied, copy } = useCopyText('code');
  return (
    <div className="chat-code">
      <div className="chat-code-bar">
        <span className="chat-code-language">{languageOf(children)}</span>
        <Button
          size="small"
          type="text"
          icon={copied ? <CheckOutlined /> : <CopyOutlined />}
          onClick={() => void copy(ref.current?.textContent ?? '')}
          data-testid="code-copy"
        >
          {copied ? t('chat:copy.copied') : t('chat:copy.copyCode')}
        </Button>
      </div>
      <pre ref={ref} {...rest}>
        {children}
      </pre>
    </div>
  );
}
