#!/usr/bin/env node
import { readFile } from 'node:fs/promises';
import { commands as dianCommands } from '../dian/cli/index.js';
import { commands as ecfCommands } from '../ecf/cli/index.js';
import { UsageError, type CliIo } from '../shared/cli/command.js';

/** Every product's commands; the DIAN ones all start with `dian`. */
const commands = [...ecfCommands, ...dianCommands];

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const sorted = [...commands].sort((a, b) => b.name.split(' ').length - a.name.split(' ').length);
  const cmd = sorted.find((c) => c.name.split(' ').every((w, i) => argv[i] === w));
  if (!cmd || argv[0] === '--help' || argv[0] === 'help') {
    io.stderr(`usage: ecf <command> [options]\n\n${commands.map((c) => `  ${c.usage}\n      ${c.summary}`).join('\n')}\n`);
    return argv.length === 0 || argv[0] === '--help' || argv[0] === 'help' ? 0 : 2;
  }
  try {
    return await cmd.run(argv.slice(cmd.name.split(' ').length), io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`ecf ${cmd.name}: ${e.message}\nusage: ${cmd.usage}\n`);
      return 2;
    }
    io.stderr(`ecf ${cmd.name}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

export const nodeIo: CliIo = {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  readFile: async (p) => new Uint8Array(await readFile(p)),
  env: process.env,
};

const isMain = process.argv[1] && /(^|[\\/])main\.(ts|js|cjs)$/.test(process.argv[1]);
if (isMain) {
  runCli(process.argv.slice(2), nodeIo).then((code) => {
    process.exitCode = code;
  });
}
