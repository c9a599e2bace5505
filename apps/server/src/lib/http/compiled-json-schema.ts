import { z } from 'zod';

/** A JSON schema as fast-json-stringify reads it (only the keywords it serializes by). */
export interface SerializerSchema {
  type?: string;
  nullable?: true;
  const?: unknown;
  properties?: Record<string, SerializerSchema>;
  required?: string[];
  additionalProperties?: false | SerializerSchema;
  items?: SerializerSchema;
}

/**
 * Zod node kinds whose JSON encoding a compiled serializer reproduces exactly. Anything
 * else (transforms, codecs, defaults, dates, unions beyond "or null", intersections,
 * tuples, lazy/recursive schemas) changes or checks values in ways a JSON schema cannot
 * say, so such responses keep zod's own encoding.
 */
const PLAIN_KINDS = new Set([
  'string',
  'number',
  'boolean',
  'null',
  'literal',
  'enum',
  'object',
  'array',
  'optional',
  'nullable',
  'record',
  'unknown',
  'any',
  'readonly',
]);

class NotPlain extends Error {}

/** The parts of zod's internal definition of a node that decide whether it is plain. */
interface ZodNode {
  _zod: {
    def: {
      type: string;
      checks?: { _zod: { def: { check: string } } }[];
      catchall?: { _zod: { def: { type: string } } };
    };
  };
}

type Json = Record<string, unknown>;

/**
 * The JSON schema that serializes what `z.encode(schema, value)` would produce, for a
 * valid value, or undefined when the schema holds anything beyond plain data.
 * Validation-only keywords (formats, lengths, bounds, enums) are left out: fast-json-stringify
 * does not check values, and `format` would make it rewrite Date objects and nulls.
 */
export function toSerializerSchema(schema: z.ZodType): SerializerSchema | undefined {
  let json: Json;
  try {
    json = z.toJSONSchema(schema, {
      target: 'draft-7',
      io: 'output',
      unrepresentable: 'throw',
      cycles: 'throw',
      reused: 'inline',
      override: ({ zodSchema }) => {
        const def = (zodSchema as unknown as ZodNode)._zod.def;
        if (!PLAIN_KINDS.has(def.type)) throw new NotPlain(def.type);
        // trim(), toLowerCase() and the like rewrite the value as zod writes it.
        if (def.checks?.some((c) => c._zod.def.check === 'overwrite')) throw new NotPlain('overwrite');
        // A strict object refuses unknown keys (zod answers an error); the compiled one would drop them.
        if (def.type === 'object' && def.catchall?._zod.def.type === 'never') throw new NotPlain('strict object');
      },
    });
  } catch {
    return undefined;
  }
  try {
    return simplify(json);
  } catch (err) {
    if (err instanceof NotPlain) return undefined;
    throw err;
  }
}

/** Keeps the keywords that decide the output; turns "X or null" into fast-json-stringify's `nullable`. */
function simplify(node: Json): SerializerSchema {
  const nullOrOther = nullableParts(node);
  if (nullOrOther) return { ...simplify(nullOrOther), nullable: true };
  if (node.anyOf || node.oneOf || node.allOf || node.not || node.if || node.$ref || node.prefixItems) {
    throw new NotPlain('combinator');
  }
  if (node.type === undefined) {
    // `{}` (unknown, any) is written as JSON.stringify writes it; a bare const is a literal.
    if (Object.keys(node).every((k) => k === '$schema' || k === 'description')) return {};
    throw new NotPlain('untyped');
  }
  if (typeof node.type !== 'string') throw new NotPlain('several types');
  const out: SerializerSchema = { type: node.type };
  if ('const' in node) out.const = node.const;
  if (node.type === 'object') {
    const props = (node.properties ?? {}) as Record<string, Json>;
    out.properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, simplify(v)]));
    const required = Array.isArray(node.required) ? (node.required as string[]) : [];
    if (requiredComeFirst(Object.keys(props), required)) out.required = required;
    const extra = node.additionalProperties;
    // Zod's output schema says false for stripped keys and a schema for records / loose objects.
    if (extra === false || extra === undefined) out.additionalProperties = false;
    else if (typeof extra === 'object' && extra !== null) out.additionalProperties = simplify(extra as Json);
    else throw new NotPlain('additional properties');
    if (node.patternProperties) throw new NotPlain('pattern properties');
  }
  if (node.type === 'array') {
    if (typeof node.items !== 'object' || node.items === null || Array.isArray(node.items)) throw new NotPlain('tuple');
    out.items = simplify(node.items as Json);
  }
  return out;
}

/**
 * fast-json-stringify writes required properties before optional ones. Where the schema
 * has an optional one first, `required` is left out to keep zod's order (a missing value
 * is then left out instead of refused).
 */
function requiredComeFirst(keys: string[], required: string[]): boolean {
  const firstOptional = keys.findIndex((k) => !required.includes(k));
  return firstOptional === -1 || keys.slice(firstOptional).every((k) => !required.includes(k));
}

/** The non-null part of `type: [T, "null"]` or `anyOf: [X, {type: "null"}]`, if `node` has that shape. */
function nullableParts(node: Json): Json | undefined {
  if (Array.isArray(node.type) && node.type.length === 2 && node.type.includes('null')) {
    const other: unknown = node.type.find((t) => t !== 'null');
    return { ...node, type: other };
  }
  const options = node.anyOf;
  if (!Array.isArray(options) || options.length !== 2 || Object.keys(node).some((k) => k !== 'anyOf')) return;
  const isNull = (o: Json) => o.type === 'null' && Object.keys(o).length === 1;
  const [a, b] = options as Json[];
  if (a && b && isNull(b) && !isNull(a)) return a;
  if (a && b && isNull(a) && !isNull(b)) return b;
  return undefined;
}
