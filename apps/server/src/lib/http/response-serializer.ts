import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { $ZodType } from 'zod/v4/core';
import { toSerializerSchema } from './compiled-json-schema.js';

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
 * drops the rest as zod does. Unlike zod it does not check the values (lengths, formats,
 * refinements): handlers are typed against the same schemas, and the route tests check
 * what they answer.
 * The schema is looked at on first use, so starting the server compiles nothing for
 * routes never called.
 *
 * A value the compiled code refuses (a required field missing, a number that is not one)
 * goes through zod after all, which answers with zod's error as before.
 */
export function responseSerializer(route: RouteSchema): ResponseSerializer {
  const viaZod = zodSerializerCompiler(route);
  /** Undecided until first use; null when the schema is left to zod. */
  let compiled: ((data: unknown) => string) | null | undefined;
  const prepare = () => {
    if (compiled === undefined) {
      const plain = route.schema instanceof $ZodType ? toSerializerSchema(route.schema as never) : undefined;
      compiled = plain ? fastJson(plain as never) : null;
    }
    return compiled;
  };
  const serialize = (data: unknown) => {
    const write = prepare();
    if (!write) return viaZod(data);
    try {
      return write(data);
    } catch {
      return viaZod(data);
    }
  };
  return Object.defineProperty(serialize, 'kind', {
    get: () => (prepare() ? 'compiled' : 'zod'),
  }) as ResponseSerializer;
}

/** The serializer compiler the app installs in place of fastify-type-provider-zod's. */
export const serializerCompiler: typeof zodSerializerCompiler = (route) => responseSerializer(route);
