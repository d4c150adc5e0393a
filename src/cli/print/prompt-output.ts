/**
@module What `cardterm -p` and `cardterm acp -p` print, entry by entry as the turn settles. By
default the answer — the model's last message of a turn that completed — goes to stdout, and
everything else (the person's message, the cards, notices, the answer's reasoning row, the turn's
end) to stderr, as Codex's `exec` splits them: `cardterm -p … > answer.md` keeps the answer, and the
terminal still shows the work. To a pipe or a file the answer is written as the model wrote it (its
Markdown; `--width` or `--color` ask for rows); to a terminal it is laid out as everywhere else.
`--transcript` prints every entry on stdout, as `replay --print` does; `--json` one object per entry.
*/
import type {AssistantEntry, TranscriptEntry} from '../../presentation/entry.js';
import {textOutput, type TerminalOutput} from '../../layout/terminal/terminal-sink.js';
import type {CliIo} from '../environment/cli-io.js';
import {entryOutput} from './entry-output.js';
import {outputOptions} from './output-options.js';
import type {ParsedArgs} from '../environment/parse-args.js';

/** Where `AnswerSplit` sends an entry. */
export type AnswerSinks = {
	readonly answer: (entry: AssistantEntry) => void;
	readonly transcript: (entry: TranscriptEntry) => void;
};

/**
Routes a turn's entries, in order: the newest assistant message is held, with the entries after it
that do not rule it out (its turn's end, notices, a todo list); a card, the person's next message or
another message rules it out, and what was held goes to the transcript in order. When the turn ends
(`finish`) the held message is the answer if the turn completed.
*/
export class AnswerSplit {
	readonly #sinks: AnswerSinks;
	#held: TranscriptEntry[] = [];

	constructor(sinks: AnswerSinks) {
		this.#sinks = sinks;
	}

	add(entry: TranscriptEntry): void {
		switch (entry.entry) {
			case 'assistant': {
				this.#release();
				this.#held.push(entry);
				return;
			}

			case 'card':
			case 'user': {
				this.#release();
				this.#sinks.transcript(entry);
				return;
			}

			default: {
				if (this.#held.length === 0) {
					this.#sinks.transcript(entry);
				} else {
					this.#held.push(entry);
				}
			}
		}
	}

	/** The turn is over: the held message is the answer when `completed` (its reasoning row goes to the transcript, before it). */
	finish(completed: boolean): void {
		const [first, ...after] = this.#held;
		if (!completed || first?.entry !== 'assistant' || first.streaming || first.interrupted) {
			this.#release();
			return;
		}

		this.#held = [];
		if (first.reasoning.trim() === '') {
			this.#sinks.answer(first);
		} else {
			this.#sinks.transcript({...first, text: ''});
			this.#sinks.answer({...first, reasoning: ''});
		}

		for (const entry of after) {
			this.#sinks.transcript(entry);
		}
	}

	#release(): void {
		for (const entry of this.#held) {
			this.#sinks.transcript(entry);
		}

		this.#held = [];
	}
}

/** What a `-p` run prints: `add` each entry as it settles, then `finish` with whether the turn completed. */
export type PromptOutput = {
	add(entry: TranscriptEntry): void;
	/** Everything written and drained. */
	finish(completed: boolean): Promise<void>;
};

/** The printer of `-p` (`command` names it in usage errors): the flags `--json`, `--transcript`, `--width`, `--color`. */
export function promptOutput(parsed: ParsedArgs, io: CliIo, command: string, sessionCwd: string): PromptOutput {
	const stdout = outputOptions(parsed, io, command, sessionCwd);
	// Writes queue, in order across both streams (one terminal may show both), and back-pressure holds.
	let writing: Promise<void> = Promise.resolve();
	const queue = (write: () => Promise<void>): void => {
		writing = writing.then(write);
	};

	const toStdout = entryOutput(stdout);
	if (stdout.json || parsed.flags.has('transcript')) {
		return {
			add(entry) {
				const output = toStdout(entry);
				queue(async () => io.write(output));
			},
			async finish() {
				await writing;
			},
		};
	}

	const toStderr = entryOutput(outputOptions(parsed, {env: io.env, ...io.stderr}, command, sessionCwd));
	const answer = (entry: AssistantEntry): TerminalOutput => stdout.answerAsWritten
		? (entry.text.trim() === '' ? textOutput('') : textOutput(`${entry.text.replace(/\s+$/, '')}\n`))
		: toStdout(entry);
	const split = new AnswerSplit({
		answer(entry) {
			const output = answer(entry);
			queue(async () => io.write(output));
		},
		transcript(entry) {
			const output = toStderr(entry);
			queue(async () => io.writeError(output));
		},
	});
	return {
		add(entry) {
			split.add(entry);
		},
		async finish(completed) {
			split.finish(completed);
			await writing;
		},
	};
}
