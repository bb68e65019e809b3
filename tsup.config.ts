import { existsSync } from 'node:fs';
import { defineConfig } from 'tsup';

// `offload-child`: the entry of the server's offload processes, forked by src/server/offload/pool.ts from next to the bundle.
const entry: Record<string, string> = { index: 'src/index.ts', cli: 'src/cli/main.ts', 'offload-child': 'src/server/offload/child.ts' };
for (const [name, file] of Object.entries({ xsd: 'src/xsd/index.ts', sign: 'src/sign/index.ts', pdf: 'src/pdf/index.ts', dgii: 'src/dgii/index.ts', simulator: 'src/simulator/index.ts', server: 'src/server/index.ts' })) {
  if (existsSync(file)) entry[name] = file;
}

export default defineConfig({
  entry,
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: true,
  // import.meta.url in the CJS build (the offload pool locates its child entry with it).
  shims: true,
  treeshake: true,
});
