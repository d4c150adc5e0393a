// The fake model server as a child process of the harness (so the harness's own polling cannot delay
// its answers), and the requests it logged in a time window.
import {spawn} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {createInterface} from 'node:readline';

/** Starts the server; resolves `{baseUrl, requests(from, to), stop()}`. Times are wall-clock ms. */
export function startModelServer({logFile, lifetimeS = 4 * 3600, dumpFolder}) {
	const args = [join(import.meta.dirname, 'fake-model-server.mjs'), '--log', logFile, '--lifetime-s', String(lifetimeS)];
	if (dumpFolder !== undefined) {
		args.push('--dump-side', dumpFolder);
	}

	// stdin stays a pipe the harness holds: the server ends when the harness does.
	const child = spawn(process.execPath, args, {stdio: ['pipe', 'pipe', 'inherit']});
	return new Promise((resolve, reject) => {
		child.once('error', reject);
		child.once('exit', code => reject(new Error(`the fake model server exited (${code}) before it listened`)));
		createInterface({input: child.stdout}).once('line', line => {
			const {port} = JSON.parse(line);
			resolve({
				baseUrl: `http://127.0.0.1:${port}`,
				pid: child.pid,
				requests(from = -Infinity, to = Infinity) {
					if (!existsSync(logFile)) {
						return [];
					}

					return readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line)).filter(entry => entry.arrival >= from && entry.arrival <= to);
				},
				stop() {
					child.removeAllListeners('exit');
					child.stdin.end();
					child.kill('SIGTERM');
				},
			});
		});
	});
}
