// The worker's entry when the server runs from its TypeScript sources (tsx, vitest): a worker
// thread starts without the parent's TypeScript loader, so it registers one before loading
// the worker. The compiled server loads extract-worker.js directly.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./extract-worker.ts');

export default worker.default;
