// Prints the coverage gate's verdict after `vitest run` (vitest itself fails the run when a threshold is missed).
import { readFileSync } from 'node:fs';

const GATE = 90;
const { total } = JSON.parse(readFileSync(new URL('../coverage/coverage-summary.json', import.meta.url), 'utf8'));
const lines = total.lines.pct;
console.log(`coverage gate ${lines >= GATE ? 'met' : 'NOT met'}: lines ${lines.toFixed(1)}% of src/ (gate ${GATE}%)`);
process.exitCode = lines >= GATE ? 0 : 1;
