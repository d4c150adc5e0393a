// node:fs with the `globSync` Node 22 added, for the conformance suite on Node 20 (see
// node20-glob-preload.mjs). Matches files under `cwd` with picomatch, the glob matcher cardterm
// already depends on; the suite's only call is globSync("**/checks.json", {cwd}).
import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';

export * from 'node:fs';
export default fs;

export function globSync(pattern, options = {}) {
	const cwd = options.cwd ?? process.cwd();
	const matches = picomatch(pattern);
	const entries = fs.readdirSync(cwd, { recursive: true });
	return entries.map(entry => String(entry).split(path.sep).join('/')).filter(entry => matches(entry));
}
