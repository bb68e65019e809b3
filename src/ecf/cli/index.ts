import type { CliCommand } from '../../shared/cli/command.js';
import { validateCommand } from './validate.js';
import { xsdCheckCommand, xsdInstallCommand } from './xsd.js';
import { buildCommand } from './build.js';
import { signCommand } from './sign.js';
import { verifyCommand } from './verify.js';
import { qrCommand } from './qr.js';
import { rfceCommand } from './rfce.js';
import { pdfCommand } from './pdf.js';
import { dgiiDirectoryCommand, dgiiSendCommand, dgiiStatusCommand, dgiiTrackIdsCommand } from './dgii.js';
import { adminCommands } from './admin.js';
import { simulateCommand } from './simulate.js';
import { workerCommand } from './worker.js';
import { serveCommand } from './serve.js';

/** Every CLI command; add a line per command file. */
export const commands: CliCommand[] = [
  validateCommand,
  xsdInstallCommand,
  xsdCheckCommand,
  buildCommand,
  signCommand,
  verifyCommand,
  qrCommand,
  rfceCommand,
  pdfCommand,
  dgiiSendCommand,
  dgiiStatusCommand,
  dgiiTrackIdsCommand,
  dgiiDirectoryCommand,
  ...adminCommands,
  simulateCommand,
  workerCommand,
  serveCommand,
];
