import './code-highlight.css';
import rehypeHighlight from 'rehype-highlight';
import type { RehypePlugin } from './markdown-plugins';

/*
 * Loaded on demand, in its own chunk, the first time an answer contains a fenced code
 * block. Only blocks that name their language are highlighted (no guessing); math
 * blocks are left to KaTeX.
 */
export const plugin: RehypePlugin = [rehypeHighlight, { detect: false, plainText: ['math', 'text', 'txt', 'plain'] }];
