#!/usr/bin/env node
import { runCli } from './run-cli.js';

runCli(process.argv).then((code) => {
  process.exitCode = code;
});
