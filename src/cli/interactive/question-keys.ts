/**
@module How a question drawn above the first frame reads its answer (the endpoint question, the
session picker): keys typed before it was on screen are never an answer — they are set aside and
handed back to stdin afterwards, for the prompt — and each later read goes to the question until it
has its answer, or until `signal` (a termination signal) aborts. Raw mode is on: the first frame set it.
*/

/** The terminal's input as a question reads it. */
export type QuestionInput = {
	on(event: 'readable', listener: () => void): unknown;
	off(event: 'readable', listener: () => void): unknown;
	read(): Buffer | string | null;
	unshift(chunk: Buffer): unknown;
};

/**
Draws the question (`draw`), then hands each read's keys to `onKeys` until it returns true (answered).
Resolves true once answered, false when `signal` aborted first.
*/
export async function readAnswer(stdin: QuestionInput, draw: () => Promise<void>, onKeys: (keys: string) => boolean, signal?: AbortSignal): Promise<boolean> {
	const ahead: Buffer[] = [];
	const setAside = (): void => {
		for (let chunk = stdin.read(); chunk !== null; chunk = stdin.read()) {
			ahead.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
		}
	};

	setAside();
	// What is read from here on is an answer: the question may be on screen long before its write
	// resolves (a loaded machine), and a key pressed on seeing it must not be set aside.
	await draw();
	const answered = await new Promise<boolean>(resolve => {
		let done = false;
		const onReadable = (): void => {
			// Read no further than the answer: what follows it is the prompt's.
			while (!done) {
				const chunk = stdin.read();
				if (chunk === null) {
					break;
				}

				done = onKeys(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
			}

			if (done) {
				stdin.off('readable', onReadable);
				signal?.removeEventListener('abort', onAbort);
				resolve(true);
			}
		};

		const onAbort = (): void => {
			stdin.off('readable', onReadable);
			resolve(false);
		};

		stdin.on('readable', onReadable);
		signal?.addEventListener('abort', onAbort, {once: true});
		if (signal?.aborted === true) {
			onAbort();
		} else {
			// Keys read while the question was being drawn are waiting already.
			onReadable();
		}
	});
	if (ahead.length > 0) {
		stdin.unshift(Buffer.concat(ahead));
	}

	return answered;
}

/** An arrow key at the start of `keys` (`ESC [ A` or `ESC O A` …): its letter, A up, B down. */
export function arrowAt(keys: string, at: number): 'A' | 'B' | undefined {
	// eslint-disable-next-line no-control-regex -- an arrow key is an escape sequence
	const arrow = /^\u001B(?:\[|O)([AB])/u.exec(keys.slice(at, at + 3));
	return arrow === null ? undefined : arrow[1] as 'A' | 'B';
}
