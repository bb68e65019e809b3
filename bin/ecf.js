#!/usr/bin/env node
import { runCli, nodeIo } from '../dist/cli.js';
runCli(process.argv.slice(2), nodeIo).then((code) => { process.exitCode = code; });
