import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const modulesDir = path.dirname(fileURLToPath(import.meta.url));

/** Which other areas each area's source files import (tests left out: they may build the whole app). */
function areaImports(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  const files = fs
    .readdirSync(modulesDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
  for (const file of files) {
    const area = file.split(path.sep)[0]!;
    const source = fs.readFileSync(path.join(modulesDir, file), 'utf8');
    for (const [, from] of source.matchAll(/\bfrom\s+'(\.[^']+)'/g)) {
      const target = path.relative(modulesDir, path.resolve(path.dirname(path.join(modulesDir, file)), from!));
      const other = target.split(path.sep)[0]!;
      if (target.startsWith('..') || other === area) continue;
      if (!graph.has(area)) graph.set(area, new Map());
      graph.get(area)!.set(other, `${file} imports ${from}`);
    }
  }
  return graph;
}

describe('feature modules', () => {
  // A cycle between areas means neither can be understood, tested or changed without the
  // other; what one area needs of another that needs it back goes through an interface.
  it('import each other without a cycle', () => {
    const graph = areaImports();
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean => {
      if (from === to) return true;
      if (seen.has(from)) return false;
      seen.add(from);
      return [...(graph.get(from)?.keys() ?? [])].some((next) => reaches(next, to, seen));
    };
    const cycles: string[] = [];
    for (const [area, targets] of graph) {
      for (const [other, example] of targets) if (reaches(other, area)) cycles.push(`${area} → ${other} (${example})`);
    }
    expect(cycles).toEqual([]);
  });
});
