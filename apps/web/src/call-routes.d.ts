/** Each call's method and path, taken from the call table at build time (see call-routes.plugin.ts). */
declare module 'virtual:call-routes' {
  import type { CallName, CallSpec } from '@aiplatform/contracts';

  const routes: Record<CallName, Pick<CallSpec, 'method' | 'path'>>;
  export default routes;
}
