// The sha256 of what `replay --print` writes for a log, in the variants a layout change must keep
// byte-identical (plain and colour, with and without --width — a pipe without it joins wrapped rows — --expand none and all):
//   node bench/print-output-sha.mjs LOG [CARDTERM]
// Run it on a build before and after a change and compare the lines (issue 12 kept them equal on the
// bench's small-events and 100 MB logs). CARDTERM: another checkout's bin/cardterm (default this one's).
import {spawn} from 'node:child_process';
import {createHash} from 'node:crypto';
import {fileURLToPath} from 'node:url';

const [log, cli = fileURLToPath(new URL('../bin/cardterm', import.meta.url))] = process.argv.slice(2);
const variants = [
	['--expand', 'none', '--width', '120'],
	['--expand', 'all', '--width', '120'],
	['--expand', 'none', '--width', '120', '--color'],
	['--expand', 'all', '--width', '120', '--color'],
	['--expand', 'none'],
	['--expand', 'all'],
];

/** The sha256 of the command's stdout. */
function outputSha(args) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [cli, 'replay', log, '--print', ...args], {stdio: ['ignore', 'pipe', 'ignore']});
		const hash = createHash('sha256');
		child.stdout.on('data', (chunk) => hash.update(chunk));
		child.on('error', reject);
		child.on('close', () => resolve(hash.digest('hex')));
	});
}

for (const args of variants) {
	process.stdout.write(`${await outputSha(args)}  ${args.join(' ')}\n`);
}
