#!/usr/bin/env node
// The CLI from a checkout or an install: TypeScript sources run through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
