#!/usr/bin/env node
// The built CLI lives in dist/ (npm install builds it); this file only starts it.
import { main } from '../dist/cli.js';

process.exitCode = await main(process.argv.slice(2));
