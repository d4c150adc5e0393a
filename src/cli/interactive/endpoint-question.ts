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
import {arrowAt, readAnswer, type QuestionInput} from './question-keys.js';

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
		const arrow = arrowAt(keys, at);
		if (arrow !== undefined) {
			choice = arrow === 'A' ? 0 : 1;
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
export type {QuestionInput} from './question-keys.js';

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
	const columns = Math.max(20, io.columns ?? 80);
	let state = QUESTION_START;
	const draw = async (): Promise<void> => io.write(joinOutput([textOutput(question.text), choices(QUESTION_START, labels)]));
	const answered = await readAnswer(stdin, draw, keys => {
		const before = state.choice;
		state = questionKeys(state, keys);
		if (state.choice !== before || state.answer !== undefined) {
			void io.write(joinOutput([controlSequence(`\u001B[${choiceRows(columns, labels)}A\r\u001B[J`), choices(state, labels)]));
		}

		return state.answer !== undefined;
	}, signal);
	return answered ? state.answer! : 'quit';
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
