/**
The question before a project's server is used: a deliberate choice. Keys typed before it was drawn
are never answers (even ↓ Enter) and go back to the prompt; letters and digits do nothing; it starts
on "no", ↑ never reaches "yes", only Enter confirms; Ctrl+C quits.
*/
import {EventEmitter} from 'node:events';
import {describe, expect, it} from 'vitest';
import {askEndpointConsent, QUESTION_START, questionKeys, type QuestionInput} from '../../../src/cli/interactive/endpoint-question.js';

const down = '\u001B[B';
const up = '\u001B[A';

describe('questionKeys', () => {
	it('starts on no; Enter alone says no', () => {
		expect(questionKeys(QUESTION_START, '\r')).toEqual({choice: 0, answer: 'refuse'});
	});

	it('typed text is not an answer: letters, digits and "yes" do nothing, its Enter says no', () => {
		expect(questionKeys(QUESTION_START, 'hello sam')).toEqual({choice: 0});
		expect(questionKeys(QUESTION_START, 'yes 1 2 y\r')).toEqual({choice: 0, answer: 'refuse'});
	});

	it('↓ then Enter allows (also the application-mode arrows); ↑ goes back to no and never past it', () => {
		expect(questionKeys(questionKeys(QUESTION_START, down), '\r')).toEqual({choice: 1, answer: 'allow'});
		expect(questionKeys(QUESTION_START, '\u001BOB\r')).toEqual({choice: 1, answer: 'allow'});
		expect(questionKeys(QUESTION_START, `${up}${up}\r`)).toEqual({choice: 0, answer: 'refuse'});
		expect(questionKeys(QUESTION_START, `${down}${up}\r`)).toEqual({choice: 0, answer: 'refuse'});
	});

	it('Esc alone says no, even on yes; Ctrl+C and Ctrl+D quit', () => {
		expect(questionKeys({choice: 1}, '\u001B')).toEqual({choice: 0, answer: 'refuse'});
		expect(questionKeys({choice: 1}, '\u0003')).toEqual({choice: 1, answer: 'quit'});
		expect(questionKeys(QUESTION_START, '\u0004')).toEqual({choice: 0, answer: 'quit'});
	});

	it('stops at the answer: later keys are not read', () => {
		expect(questionKeys(QUESTION_START, `\r${down}\r`)).toEqual({choice: 0, answer: 'refuse'});
	});
});

/** Until the question is on screen (its write resolved). */
const drawn = async (): Promise<void> => new Promise(resolve => {
	setImmediate(resolve);
});

/** A terminal input: chunks already buffered, and chunks that arrive later. */
function fakeInput(buffered: string[]): QuestionInput & {arrive(text: string): void; unshifted: Buffer[]} {
	const events = new EventEmitter();
	const queue = buffered.map(text => Buffer.from(text));
	const unshifted: Buffer[] = [];
	return {
		unshifted,
		on: (event, listener) => events.on(event, listener),
		off: (event, listener) => events.off(event, listener),
		read: () => queue.shift() ?? null,
		unshift(chunk) {
			unshifted.push(chunk);
		},
		arrive(text) {
			queue.push(Buffer.from(text));
			events.emit('readable');
		},
	};
}

describe('askEndpointConsent', () => {
	const question = {url: 'http://gw.example/v1', file: '/repo/.cardterm/config.json'};

	it('keys typed before the question (even ↓ Enter) are not answers, and are handed back for the prompt', async () => {
		const written: string[] = [];
		const input = fakeInput([`fix it${down}\r`]);
		const answered = askEndpointConsent({columns: 80, write: async text => void written.push(String(text))}, input, question);
		await drawn();
		input.arrive('\r');
		expect(await answered).toBe('refuse');
		expect(Buffer.concat(input.unshifted).toString()).toBe(`fix it${down}\r`);
		expect(written.join('')).toContain('/repo/.cardterm/config.json sends this project\'s model requests to\n  http://gw.example/v1');
		expect(written.join('')).toContain('› not allowed');
	});

	it('a key pressed once the question shows, while its write is still being flushed, answers it', async () => {
		const input = fakeInput([]);
		let flushed: () => void = () => undefined;
		let writes = 0;
		const answered = askEndpointConsent({columns: 80, async write() {
			writes += 1;
			if (writes === 1) {
				// The terminal shows the question; the write's callback comes late (a loaded machine).
				await new Promise<void>(resolve => {
					flushed = resolve;
				});
			}
		}}, input, question);
		await drawn();
		input.arrive('\u001B');
		flushed();
		const late = new Promise(resolve => {
			setTimeout(() => resolve('no answer'), 2000);
		});
		expect(await Promise.race([answered, late])).toBe('refuse');
		expect(input.unshifted).toEqual([]);
	});

	it('↓ and Enter after it is drawn allow', async () => {
		const written: string[] = [];
		const input = fakeInput([]);
		const answered = askEndpointConsent({columns: 80, write: async text => void written.push(String(text))}, input, question);
		await drawn();
		input.arrive(down);
		expect(written.join('')).toContain('› Yes: allow it for this project');
		input.arrive('\r');
		expect(await answered).toBe('allow');
		expect(input.unshifted).toEqual([]);
	});

	it('escapes in the file name and the URL are shown as text, never written', async () => {
		const written: string[] = [];
		const input = fakeInput([]);
		const answered = askEndpointConsent({columns: 80, write: async text => void written.push(String(text))}, input, {url: 'http://gw.example/\u001B]0;owned\u0007', file: '/repo\u001B[2J/.cardterm/config.json'});
		await drawn();
		input.arrive('\u0003');
		expect(await answered).toBe('quit');
		const shown = written.join('');
		expect(shown).not.toContain('\u001B[2J');
		expect(shown).not.toContain('\u001B]0;');
		expect(shown).toContain('\\x1b[2J');
	});
});
