import type { CliCommand } from '../../shared/cli/command.js';
import { dianAdminCommands } from './admin.js';
import { dianCertificateAddCommand } from './admin-certificate.js';
import { dianResolutionFetchCommand } from './admin-fetch.js';
import { dianAttachCommand } from './attach.js';
import { dianBuildCommand } from './build.js';
import { dianEventCommand } from './event.js';
import { dianHashCommand } from './hash.js';
import { dianPayrollBuildCommand, dianPayrollSignCommand } from './payroll.js';
import { dianPdfCommand } from './pdf.js';
import { dianPayrollSendCommand, dianPayrollStatusCommand, dianSendCommand, dianStatusCommand } from './send.js';
import { dianSignCommand, dianVerifyCommand } from './sign.js';
import { dianSimulateCommand } from './simulate.js';
import { dianTestSetCommands } from './test-set.js';
import { dianValidateCommand, dianXsdCheckCommand, dianXsdInstallCommand } from './xsd.js';
import { dianZipCommand } from './zip.js';

/** Every DIAN CLI command (`ecf dian …`); add a line per command file. */
export const commands: CliCommand[] = [
  dianValidateCommand,
  dianXsdInstallCommand,
  dianXsdCheckCommand,
  dianHashCommand,
  dianBuildCommand,
  dianEventCommand,
  dianZipCommand,
  dianSignCommand,
  dianVerifyCommand,
  dianPdfCommand,
  dianAttachCommand,
  dianPayrollBuildCommand,
  dianPayrollSignCommand,
  dianPayrollSendCommand,
  dianPayrollStatusCommand,
  dianSimulateCommand,
  dianSendCommand,
  dianStatusCommand,
  ...dianAdminCommands,
  ...dianTestSetCommands,
  dianCertificateAddCommand(),
  dianResolutionFetchCommand(),
];
