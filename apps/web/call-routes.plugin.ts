import { fileURLToPath } from 'node:url';
import { type Plugin, runnerImport } from 'vite';
import type * as Calls from '../../packages/contracts/src/calls/index.js';

const ID = 'virtual:call-routes';
const RESOLVED = `\0${ID}`;
const CALL_TABLE = fileURLToPath(new URL('../../packages/contracts/src/calls/index.ts', import.meta.url));

/**
 * At run time the client needs only each call's method and path. The call table also
 * holds every zod schema, and importing it would put zod and all of them into what /login
 * must load. So the table is evaluated while building and `virtual:call-routes` serves
 * the methods and paths alone: one source, nothing copied by hand.
 */
export function callRoutes(): Plugin {
  return {
    name: 'call-routes',
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    async load(id) {
      if (id !== RESOLVED) return undefined;
      const { module, dependencies } = await runnerImport<typeof Calls>(CALL_TABLE, { configFile: false });
      // The dev server rebuilds the routes when a table changes.
      for (const file of dependencies) this.addWatchFile(file);
      const routes = Object.fromEntries(
        Object.entries(module.API_CALLS).map(([name, spec]) => [name, { method: spec.method, path: spec.path }]),
      );
      return `export default ${JSON.stringify(routes)};`;
    },
  };
}
