/*
 * zod compiles a fast parser for object schemas with `new Function`, and first probes
 * whether it may. The content security policy allows no eval, so the probe fails, and
 * although zod catches that and parses without the compiled path, the browser reports a
 * violation on every page that builds a schema. Jitless mode skips the probe and the
 * compiled path; zod reads it when a schema is built, so this module is the entry's first
 * import and runs before any chunk holding the contract's schemas is evaluated.
 *
 * zod keeps its configuration on `globalThis.__zod_globalConfig` and takes one set there
 * before it loads (the way its own source describes for configuring it early). Setting it
 * here, rather than calling `z.config()`, keeps zod out of the entry chunk: importing even
 * zod's core module would add some 4 KB (gzip) to what /login must load.
 */
const holder = globalThis as typeof globalThis & { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };

export {};
