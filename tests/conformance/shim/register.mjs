// Preloaded with `node --import ./shim/register.mjs`: the conformance suite
// imports globSync from "fs", which Node added in 22. On an older Node this
// registers hooks (hooks.mjs) that give the suite an "fs" with globSync.
// On a Node that has it, nothing is registered.
import fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') {
  register('./hooks.mjs', import.meta.url);
}
