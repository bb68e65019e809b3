import type { CliCommand } from '../command.js';
import { buildCommand } from './build.js';

/** Every CLI command; add a line per command file. */
export const commands: CliCommand[] = [
  buildCommand,];
