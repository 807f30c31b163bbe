// Module hooks (see register.mjs): every import of "fs" or "node:fs" from
// outside this file resolves to a module that re-exports Node's fs and adds
// globSync. The suite calls globSync only as globSync("**/checks.json",
// { cwd }) (tier-check's result reader), so globSync implements the common
// glob subset: "**" for any number of folders, "*" and "?" within one name.

const SHIM_URL = 'gatehouse-shim:fs';

const SOURCE = `
import fs from 'node:fs';
import path from 'node:path';
export * from 'node:fs';
export default fs;

function toRegExp(pattern) {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      // "**/" matches zero or more folders; a trailing "**" matches the rest.
      if (pattern[i + 2] === '/') { re += '(?:[^/]*/)*'; i += 2; } else { re += '.*'; i += 1; }
    } else if (c === '*') {
      re += '[^/]*';
    } else if (c === '?') {
      re += '[^/]';
    } else {
      re += c.replace(/[.+^\${}()|[\\]\\\\]/g, '\\\\$&');
    }
  }
  return new RegExp('^' + re + '$');
}

// globSync(pattern | patterns, { cwd }) returns matching paths relative to
// cwd, with the platform's separator, as Node 22's does.
export function globSync(patterns, options = {}) {
  const cwd = options.cwd === undefined ? process.cwd() : String(options.cwd);
  const res = (Array.isArray(patterns) ? patterns : [patterns]).map((p) => toRegExp(String(p)));
  let entries;
  try {
    entries = fs.readdirSync(cwd, { recursive: true });
  } catch (err) {
    if (err.code === 'ENOENT') return [];
    throw err;
  }
  return entries
    .map((e) => String(e))
    .filter((e) => { const posix = e.split(path.sep).join('/'); return res.some((re) => re.test(posix)); });
}
`;

export async function resolve(specifier, context, nextResolve) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL !== SHIM_URL) {
    return { url: SHIM_URL, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (url === SHIM_URL) {
    return { format: 'module', source: SOURCE, shortCircuit: true };
  }
  return nextLoad(url, context);
}
