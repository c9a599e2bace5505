import { type Compilable, CompiledQuery, type QueryResult } from 'kysely';

/** Where a compiled query runs: the database or a transaction of it. */
export interface QueryRunner {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
}

/** Stands for the n-th argument while the query is built; found again among the compiled parameters. */
class Slot {
  constructor(readonly index: number) {}
}

interface Shape {
  sql: string;
  /** Per compiled parameter: the argument it takes, or a value fixed by the query itself. */
  parameters: (Slot | { fixed: unknown })[];
}

/**
 * A query of fixed shape whose SQL is built once. Kysely builds and compiles a query on
 * every call, which for the reads behind nearly every request (the signed-in user, the
 * conversation list) costs more CPU than SQLite takes to answer them. `build` is run
 * once with stand-ins for its arguments, which must each become a bound parameter (not
 * SQL text, not `null`); later calls bind the real values to the same SQL.
 */
export function reusableQuery<A extends unknown[], R>(
  build: (...args: A) => Compilable<R>,
): (runner: QueryRunner, ...args: A) => Promise<R[]> {
  let shape: Shape | undefined;
  return async (runner, ...args) => {
    shape ??= compileShape(build);
    return run<R>(runner, shape, args);
  };
}

/**
 * The same for code that has no database of its own and is handed a transaction: the
 * query is built from the runner of its first call, once per SQL dialect.
 */
export function reusableQueryIn<Q extends QueryRunner & { getExecutor(): { adapter: object } }, A extends unknown[], R>(
  build: (db: Q, ...args: A) => Compilable<R>,
): (runner: Q, ...args: A) => Promise<R[]> {
  const shapes = new Map<unknown, Shape>();
  return async (runner, ...args) => {
    const dialect = runner.getExecutor().adapter.constructor;
    let shape = shapes.get(dialect);
    if (!shape) {
      shape = compileShape((...a: A) => build(runner, ...a), build.length - 1);
      shapes.set(dialect, shape);
    }
    return run(runner, shape, args);
  };
}

async function run<R>(runner: QueryRunner, shape: Shape, args: unknown[]): Promise<R[]> {
  const parameters = shape.parameters.map((p) => (p instanceof Slot ? args[p.index] : p.fixed));
  return (await runner.executeQuery<R>(CompiledQuery.raw(shape.sql, parameters))).rows;
}

function compileShape<A extends unknown[], R>(build: (...args: A) => Compilable<R>, arity = build.length): Shape {
  const slots = Array.from({ length: arity }, (_, i) => new Slot(i));
  const compiled = build(...(slots as unknown as A)).compile();
  const parameters = compiled.parameters.map((p) => (p instanceof Slot ? p : { fixed: p }));
  const bound = new Set(parameters.filter((p) => p instanceof Slot).map((p) => p.index));
  if (bound.size !== slots.length)
    throw new Error(`reusableQuery: an argument is not a bound parameter in ${compiled.sql}`);
  return { sql: compiled.sql, parameters };
}
