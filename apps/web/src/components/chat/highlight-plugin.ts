import './code-highlight.css';
import rehypeHighlight from 'rehype-highlight';
import type { RehypePlugin } from './markdown-plugins';

/*
 * Loaded on demand, in its own chunk, the first time an answer contains a fenced code
 * block. Only blocks that name their language are highlighted (no guessing); math
 * blocks are left to KaTeX.
 *
 * The highlighter is built once, here: rehype-highlight registers every common language
 * in a fresh highlight.js instance each time its plugin is attached, and the markdown
 * renderer attaches its plugins on every render (each frame of a streamed answer), which
 * made that setup and the grammar compilation the largest cost of a frame.
 */
const highlight = rehypeHighlight({ detect: false, plainText: ['math', 'text', 'txt', 'plain'] });

export const plugin: RehypePlugin = () => highlight;
