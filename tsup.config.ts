import { existsSync } from 'node:fs';
import { defineConfig } from 'tsup';

const entry: Record<string, string> = { index: 'src/index.ts', cli: 'src/cli/main.ts' };
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
  treeshake: true,
});
