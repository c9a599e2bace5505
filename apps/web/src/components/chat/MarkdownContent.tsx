import { PictureOutlined } from '@ant-design/icons';
import { type ComponentProps, memo } from 'react';
import { useTranslation } from 'react-i18next';
import Markdown, { type Components, type ExtraProps } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import { CodeBlock } from './CodeBlock';
import { expandDisplayMath } from './display-math';
import { isOwnImage } from '../common/image-source';
import { splitMarkdownBlocks } from './markdown-blocks';
import { useRehypePlugins } from './markdown-plugins';
import './markdown.css';

const REMARK_PLUGINS = [remarkGfm, remarkMath];

/**
 * Links from a model open in a new tab and pass on neither the opener nor the referrer.
 * A link whose URL the filter removed (e.g. `javascript:`) is shown as plain text.
 */
function ExternalLink({ node: _node, children, ...rest }: ComponentProps<'a'> & ExtraProps) {
  if (!rest.href) return <span>{children}</span>;
  return (
    <a {...rest} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}

/** The page's origin; none while rendered outside a browser (tests), where only relative images count as ours. */
const pageOrigin = (): string => globalThis.location?.origin ?? 'http://localhost';

/**
 * An image from this site (an upload) is shown; one from anywhere else is never fetched
 * (loading it could carry chat text away in its address) and becomes a link to it instead,
 * opened only by the reader's click, in a new tab, without the referrer.
 */
function MarkdownImage({ node: _node, alt, src, ...rest }: ComponentProps<'img'> & ExtraProps) {
  const { t } = useTranslation();
  const source = typeof src === 'string' ? src : '';
  if (!source) return alt ? <span>{alt}</span> : null;
  if (!isOwnImage(source, pageOrigin())) {
    return (
      <a
        href={source}
        target="_blank"
        rel="noopener noreferrer nofollow"
        className="chat-markdown-remote-image"
        title={t('chat:markdown.remoteImage', { url: source })}
        data-testid="remote-image-link"
      >
        <PictureOutlined aria-hidden />
        {alt || source}
      </a>
    );
  }
  return <img {...rest} src={source} alt={alt ?? ''} loading="lazy" referrerPolicy="no-referrer" />;
}

const COMPONENTS: Components = { pre: CodeBlock, a: ExternalLink, img: MarkdownImage };

interface MarkdownContentProps {
  text: string;
  /** The text is still growing. */
  streaming?: boolean;
}

const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  const rehypePlugins = useRehypePlugins(text);
  return (
    <Markdown remarkPlugins={REMARK_PLUGINS} rehypePlugins={rehypePlugins} components={COMPONENTS}>
      {expandDisplayMath(text)}
    </Markdown>
  );
});

/**
 * Markdown of a model's answer: GFM, code highlighting and LaTeX. Raw HTML in the text
 * is never rendered as HTML (no rehype-raw: react-markdown shows it as text), and
 * react-markdown's URL filter drops `javascript:` and other script URLs. While the answer
 * streams it is rendered block by block, so finished blocks are not rendered again.
 */
export const MarkdownContent = memo(function MarkdownContent({ text, streaming = false }: MarkdownContentProps) {
  return (
    <div className="chat-markdown">
      {streaming ? (
        splitMarkdownBlocks(text).map((block, index) => <MarkdownBlock key={index} text={block} />)
      ) : (
        <MarkdownBlock text={text} />
      )}
    </div>
  );
});
