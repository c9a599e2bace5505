import 'katex/dist/katex.min.css';
import rehypeKatex from 'rehype-katex';
import type { RehypePlugin } from './markdown-plugins';
import { cachedTypesetting } from './typeset-cache';

/*
 * Loaded on demand, in its own chunk, the first time an answer contains `$`. Bad TeX is
 * shown as source rather than throwing (rehype-katex catches KaTeX's error itself); KaTeX's
 * `trust` stays off, so no \href or \url can produce a script link. Built once, like the
 * highlighter: the markdown renderer attaches its plugins on every render. Each formula is
 * typeset once and reused while it is unchanged (a streamed paragraph renders many times).
 */
const katex = cachedTypesetting(rehypeKatex({ strict: 'ignore', trust: false }));

export const plugin: RehypePlugin = () => katex;
