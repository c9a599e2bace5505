import 'katex/dist/katex.min.css';
import rehypeKatex from 'rehype-katex';
import type { RehypePlugin } from './markdown-plugins';

/*
 * Loaded on demand, in its own chunk, the first time an answer contains `$`. Bad TeX is
 * shown as source rather than throwing; KaTeX's `trust` stays off, so no \href or \url
 * can produce a script link.
 */
export const plugin: RehypePlugin = [rehypeKatex, { throwOnError: false, strict: 'ignore', trust: false }];
