// `node --import ./register.mjs …`: resolves `electron` to the stand-in (hooks.mjs).
import { register } from 'node:module';

register(new URL('./hooks.mjs', import.meta.url));
