import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const libDir = path.dirname(fileURLToPath(import.meta.url));

/** Every file under lib/. */
function libFiles(): string[] {
  return fs
    .readdirSync(libDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(libDir, file));
}

describe('lib/', () => {
  it('is split by what it is: auth, http, data, runtime, and nothing loose', () => {
    const loose = libFiles().filter((file) => path.dirname(file) === libDir && !file.endsWith('layering.test.ts'));
    expect(loose.map((file) => path.basename(file))).toEqual([]);
  });

  // Plumbing that reaches back into a feature module makes every module depend on every
  // other one through it; what lib/ needs of a module it declares as an interface instead.
  // Tests are left out: they may build the whole app.
  it('imports nothing from modules/, policies/ or the composition root', () => {
    for (const file of libFiles().filter((name) => !name.endsWith('.test.ts'))) {
      const source = fs.readFileSync(file, 'utf8');
      for (const [, from] of source.matchAll(/\bfrom\s+'(\.[^']+)'/g)) {
        const target = path.resolve(path.dirname(file), from!);
        const reachesBack = !target.startsWith(libDir + path.sep) && !/[/\\]src[/\\](db|locales)[/\\]/.test(target);
        expect(reachesBack, `${path.relative(libDir, file)} imports ${from}`).toBe(false);
      }
    }
  });
});
