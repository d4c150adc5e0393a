// A bench's fake model server in a process of its own (so the bench's CPU time and heap are
// cardterm's alone): forks `file` with `args`, waits for its `{url}`, and asks it for its stats or to
// close over IPC. The child answers `{kind: 'stats'}` and `{kind: 'close'}` (see read-steps-server.mjs).
import {fork} from 'node:child_process';

/** Forks the server module at `file`; resolves `{url, ask(request), close()}`. */
export async function startForkedServer(file, args) {
	const child = fork(file, args, {stdio: ['ignore', 'inherit', 'inherit', 'ipc']});
	const replies = [];
	child.on('message', message => replies.shift()?.(message));
	const ask = request => new Promise(resolve => {
		replies.push(resolve);
		child.send(request);
	});
	const {url} = await new Promise((resolve, reject) => {
		child.once('message', resolve);
		child.once('exit', code => reject(new Error(`the bench's model server exited (${code}) before it listened`)));
	});
	replies.length = 0;
	return {
		url,
		ask,
		close: async () => {
			child.removeAllListeners('exit');
			await ask({kind: 'close'});
		},
	};
}
