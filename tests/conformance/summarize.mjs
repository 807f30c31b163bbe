// Prints the one-line result of a conformance run (see run.sh) from the
// suite's own stdout: its suite summary (a "✓", "✗" or "-" line per
// scenario) and its baseline verdict ("~" expected failures, "✓" stale
// entries, "✗" unexpected failures).
//
//   node summarize.mjs <label> <stdout log> <suite exit status> <seconds>
import fs from 'node:fs';

const [label, logPath, rcText, seconds] = process.argv.slice(2);
const rc = Number(rcText);
const text = fs.readFileSync(logPath, 'utf8').replace(/\x1b\[[0-9;]*m/g, '');
const at = text.indexOf('=== SUITE SUMMARY ===');
if (at < 0) {
  console.log(`conformance ${label}: FAIL - the suite did not finish (exit ${rc}); see ${logPath} and ${logPath}.stderr`);
  process.exit(0);
}

let passed = 0, failed = 0, skipped = 0;
const expected = [], stale = [], unexpected = [];
let section = '';
for (const line of text.slice(at).split('\n')) {
  let m;
  if ((m = /^([✓✗]) (\S+): \d+ passed/.exec(line))) {
    if (m[1] === '✓') passed++; else failed++;
  } else if (/^- \S+: skipped/.test(line)) {
    skipped++;
  } else if (line.startsWith('Expected failures')) {
    section = 'expected';
  } else if (line.startsWith('Stale baseline entries')) {
    section = 'stale';
  } else if (line.startsWith('Unexpected failures (not in baseline)')) {
    section = 'unexpected';
  } else if ((m = /^ {2}[~✓✗] (\S+)/.exec(line))) {
    ({ expected, stale, unexpected })[section]?.push(m[1]);
  } else if (line.trim() === '') {
    section = '';
  }
}

const total = passed + failed + skipped;
const verdict = rc === 0 ? 'PASS' : 'FAIL';
let out = `conformance ${label}: ${verdict} - ${total} scenarios: ${passed} passed, ${failed} failed ` +
  `(${expected.length} baselined, ${unexpected.length} unexpected), ${stale.length} stale baseline entries` +
  (skipped ? `, ${skipped} skipped` : '') + `; ${seconds} s`;
if (unexpected.length) out += `\n  unexpected failures: ${unexpected.join(' ')}`;
if (stale.length) out += `\n  stale baseline entries (passing now; remove them): ${stale.join(' ')}`;
if (rc !== 0 && !unexpected.length && !stale.length) out += `\n  the suite exited ${rc}; see ${logPath}.stderr`;
console.log(out);
