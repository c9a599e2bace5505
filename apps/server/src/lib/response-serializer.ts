import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { $ZodType } from 'zod/v4/core';
import { type SerializerSchema, toSerializerSchema } from './compiled-json-schema.js';

/** What fastify hands a serializer compiler: the route, its status code and its response schema. */
type RouteSchema = Parameters<typeof zodSerializerCompiler>[0];

/** How a response schema is written: generated code from its JSON schema, or zod's encode + JSON.stringify. */
export interface ResponseSerializer {
  (data: unknown): string;
  readonly kind: 'compiled' | 'zod';
}

/**
 * Writes one response schema. Zod's serializer parses every value of a response (for a
 * page of a hundred rows, most of the request's CPU) before JSON.stringify walks it again;
 * a schema of plain data is instead compiled once into straight-line code by
 * fast-json-stringify, which writes exactly the schema's fields, in the same order, and
 * drops the rest as zod does. The code is generated on first use, so starting the server
 * compiles nothing for routes never called.
 *
 * A value the compiled code cannot write (a required field missing, a wrong type) goes
 * through zod after all, which answers with zod's error as before.
 */
export function responseSerializer(route: RouteSchema): ResponseSerializer {
  const viaZod = zodSerializerCompiler(route);
  const zodSchema = route.schema instanceof $ZodType ? route.schema : undefined;
  const jsonSchema: SerializerSchema | undefined = zodSchema && toSerializerSchema(zodSchema as never);
  if (!jsonSchema) return Object.assign((data: unknown) => viaZod(data), { kind: 'zod' as const });
  let compiled: ((data: unknown) => string) | undefined;
  const serialize = (data: unknown) => {
    compiled ??= fastJson(jsonSchema as never);
    try {
      return compiled(data);
    } catch {
      return viaZod(data);
    }
  };
  return Object.assign(serialize, { kind: 'compiled' as const });
}

/** The serializer compiler the app installs in place of fastify-type-provider-zod's. */
export const serializerCompiler: typeof zodSerializerCompiler = (route) => responseSerializer(route);
