/**
@module `/rewind [N [both|conversation|files]]`: back to just before the person's message N (as
`/rewind` lists them). `files` takes back every file change made since (as `/undo` does, as cards in
this log); `conversation` goes on in a fork of this session that ends before the message (this log
stays as it was); `both` (the default) does the two. An ACP agent's session rewinds files only.
*/
import {sanitizeInline} from '../../layout/text/sanitize.js';
import {splitWords, type CommandContext, type PromptCommand} from './prompt-command.js';

const MODES = ['both', 'conversation', 'files'] as const;
type Mode = typeof MODES[number];

/** Characters of a message shown in the list. */
const SHOWN = 72;

export const rewindCommand: PromptCommand = {
	name: '/rewind',
	args: '[N [both|conversation|files]]',
	help: 'back to before your message N: its files, its conversation (in a fork), or both',
	available: session => session.undo !== undefined,
	run(text, context) {
		const words = splitWords(text);
		const mode = (words[1] ?? 'both') as Mode;
		const number = words[0] === undefined ? undefined : Number(words[0]);
		if (words.length > 2 || !MODES.includes(mode) || (number !== undefined && (!Number.isSafeInteger(number) || number < 1))) {
			context.say('usage: /rewind [N [both|conversation|files]]', 'error');
			return;
		}

		if (mode !== 'files' && number !== undefined && context.forks?.fork === undefined) {
			context.say('/rewind: this session\'s conversation cannot be forked here (an ACP agent\'s, or one without a log); /rewind N files takes back the files', 'error');
			return;
		}

		context.queue({kind: 'task', label: context.line.trim(), async run() {
			await rewind(context, number, mode);
		}});
	},
};

async function rewind(context: CommandContext, number: number | undefined, mode: Mode): Promise<void> {
	const messages = await context.forks?.messages();
	if (messages === undefined) {
		context.say('/rewind: this session keeps no list of your messages; /undo N takes back the last N turns', 'error');
		return;
	}

	if (number === undefined || number > messages.length) {
		const list = messages.map((message, index) => `  ${index + 1}  ${sanitizeInline(message.text.split('\n')[0]!.slice(0, SHOWN))}`);
		context.say([messages.length === 0 ? 'no messages of yours to rewind to' : 'your messages (/rewind N [both|conversation|files] goes back to just before N):', ...list].join('\n'), number === undefined ? 'info' : 'error');
		return;
	}

	const {seq} = messages[number - 1]!;
	if (mode !== 'conversation') {
		const outcome = await context.undo!.undoSince(seq);
		context.say(outcome.message, outcome.tone);
		if (outcome.tone === 'error') {
			return;
		}
	}

	if (mode !== 'files') {
		const fork = await context.forks!.fork!(seq);
		context.say(`rewound the conversation to before message ${number}: session ${fork.header.id}, a fork of this one (which stays as it was)`, 'info');
		context.continueIn(fork);
	}
}
