/**
@module The question the interactive session asks before a project's config may send the model's
requests (the person's key, the whole conversation) to a server it names, drawn before the live
screen like Claude Code's and Codex's folder-trust questions. Consent must be a deliberate choice:
keys typed before the question was drawn are not answers (they are kept for the prompt), the
highlighted choice starts on "no" with "yes" below it (↑, a history key, never reaches it), letters
and digits do nothing, and only Enter confirms. Ctrl+C quits without starting.
*/
import {controlSequence, joinOutput, textOutput, type TerminalOutput} from '../../layout/terminal/terminal-sink.js';
import {displayWidth} from '../../layout/text/text-width.js';
import type {CliIo} from '../environment/cli-io.js';

export type ConsentAnswer = 'allow' | 'refuse' | 'quit';

/** The highlighted choice (0 refuse, 1 allow), and the answer once confirmed. */
export type QuestionState = {readonly choice: 0 | 1; readonly answer?: ConsentAnswer};

export const QUESTION_START: QuestionState = {choice: 0};

/** What "no" and "yes" say. */
type Choices = readonly [string, string];

const ENDPOINT_CHOICES: Choices = ['No: use my own model setting', 'Yes: allow it for this project (remembered)'];
const HINT = '↑/↓ choose · Enter confirm · Ctrl+C quit';

/** The state after `keys` arrived (one read's worth); keys after an answer are not read. */
export function questionKeys(state: QuestionState, keys: string): QuestionState {
	let {choice} = state;
	let at = 0;
	while (at < keys.length && state.answer === undefined) {
		// eslint-disable-next-line no-control-regex -- an arrow key is an escape sequence
		const arrow = /^\u001B(?:\[|O)([AB])/.exec(keys.slice(at, at + 3));
		if (arrow !== null) {
			choice = arrow[1] === 'A' ? 0 : 1;
			at += 3;
			continue;
		}

		const key = keys[at]!;
		at += 1;
		if (key === '\r' || key === '\n') {
			return {choice, answer: choice === 1 ? 'allow' : 'refuse'};
		}

		if (key === '\u0003' || key === '\u0004') {
			return {choice, answer: 'quit'};
		}

		if (key === '\u001B' && at === keys.length) {
			// Esc alone (not the start of a sequence): no.
			return {choice: 0, answer: 'refuse'};
		}
	}

	return {...state, choice};
}

/** The terminal's input as the question reads it (raw mode is on: the first frame set it). */
export type QuestionInput = {
	on(event: 'readable', listener: () => void): unknown;
	off(event: 'readable', listener: () => void): unknown;
	read(): Buffer | string | null;
	unshift(chunk: Buffer): unknown;
};

/** Ask whether the project may use `url` (named by `file`); resolves with the answer (`quit` when `signal` aborts: a termination signal). */
export async function askEndpointConsent(io: Pick<CliIo, 'write' | 'columns'>, stdin: QuestionInput, question: {readonly url: string; readonly file: string}, signal?: AbortSignal): Promise<ConsentAnswer> {
	const text = `\n${question.file} sends this project's model requests to\n  ${question.url}\nYour API key and the whole conversation would go to that server. Allow it?\n`;
	return askConsent(io, stdin, {text, choices: ENDPOINT_CHOICES}, signal);
}

/**
A project's consent question of another kind (its MCP servers), by the same rules: `text` above the
choices (already sanitized by the caller), "no" first.
*/
export async function askConsent(io: Pick<CliIo, 'write' | 'columns'>, stdin: QuestionInput, question: {readonly text: string; readonly choices: Choices}, signal?: AbortSignal): Promise<ConsentAnswer> {
	const {choices: labels} = question;
	// Typed before the question was on screen: never an answer; handed back for the prompt afterwards.
	const ahead: Buffer[] = [];
	const setAside = (): void => {
		for (let chunk = stdin.read(); chunk !== null; chunk = stdin.read()) {
			ahead.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
		}
	};

	setAside();
	const columns = Math.max(20, io.columns ?? 80);
	await io.write(joinOutput([textOutput(question.text), choices(QUESTION_START, labels)]));
	setAside();
	let state = QUESTION_START;
	const answer = await new Promise<ConsentAnswer>(resolve => {
		const onReadable = (): void => {
			for (let chunk = stdin.read(); chunk !== null && state.answer === undefined; chunk = stdin.read()) {
				const before = state.choice;
				state = questionKeys(state, typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
				if (state.choice !== before || state.answer !== undefined) {
					void io.write(joinOutput([controlSequence(`\u001B[${choiceRows(columns, labels)}A\r\u001B[J`), choices(state, labels)]));
				}
			}

			if (state.answer !== undefined) {
				stdin.off('readable', onReadable);
				signal?.removeEventListener('abort', onAbort);
				resolve(state.answer);
			}
		};

		const onAbort = (): void => {
			stdin.off('readable', onReadable);
			resolve('quit');
		};

		stdin.on('readable', onReadable);
		signal?.addEventListener('abort', onAbort, {once: true});
		if (signal?.aborted === true) {
			onAbort();
		}
	});
	if (ahead.length > 0) {
		stdin.unshift(Buffer.concat(ahead));
	}

	return answer;
}

/** The choices and the hint, the highlighted one bold after a marker; a confirmed answer is shown alone. */
function choices(state: QuestionState, labels: Choices): TerminalOutput {
	if (state.answer !== undefined) {
		const said = state.answer === 'allow' ? 'allowed for this project' : (state.answer === 'refuse' ? 'not allowed' : 'quit');
		return joinOutput([controlSequence('\u001B[1m'), textOutput(`› ${said}`), controlSequence('\u001B[0m\n')]);
	}

	return joinOutput([
		...labels.map((text, index) => index === state.choice ? joinOutput([controlSequence('\u001B[1m'), textOutput(`› ${text}`), controlSequence('\u001B[0m\n')]) : textOutput(`  ${text}\n`)),
		controlSequence('\u001B[2m'), textOutput(HINT), controlSequence('\u001B[0m\n'),
	]);
}

/** The rows the choices and the hint take at this width (a narrow terminal wraps them). */
function choiceRows(columns: number, labels: Choices): number {
	return [...labels.map(text => `› ${text}`), HINT].reduce((rows, line) => rows + Math.max(1, Math.ceil(displayWidth(line) / columns)), 0);
}
