import { existsSync } from 'node:fs';
import { defineConfig } from 'tsup';

// `offload-child`: the entry of the server's offload processes, forked by src/ecf/server/offload/pool.ts from next to the bundle.
const entry: Record<string, string> = { index: 'src/ecf/index.ts', cli: 'src/cli/main.ts', 'offload-child': 'src/ecf/server/offload/child.ts' };
for (const [name, file] of Object.entries({
  xsd: 'src/ecf/xsd/index.ts',
  sign: 'src/ecf/sign/index.ts',
  pdf: 'src/ecf/pdf/index.ts',
  dgii: 'src/ecf/dgii/index.ts',
  simulator: 'src/ecf/simulator/index.ts',
  server: 'src/ecf/server/index.ts',
  dian: 'src/dian/index.ts',
  'dian/sign': 'src/dian/sign/index.ts',
  'dian/xsd': 'src/dian/xsd/index.ts',
  'dian/transport': 'src/dian/transport/index.ts',
  'dian/pdf': 'src/dian/pdf/index.ts',
  'dian/simulator': 'src/dian/simulator/index.ts',
  'dian/server': 'src/dian/server/index.ts',
})) {
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
