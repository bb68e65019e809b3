import type { CliCommand } from '../command.js';

/** Every CLI command; add a line per command file. */
export const commands: CliCommand[] = [];
