/**
@module What a tool result may cost the model: each result, and all the results of one step, are
bounded in tokens. A result over its bound keeps its head and its tail (an error or a summary is
usually at the end, the command's first lines at the start) and the middle is replaced by one line
that says how much was left out and where the whole text is — the call's card in the log, and the
spill file when the tool kept one — so the model can ask for the part it needs. The card shows the
whole output: only the model's copy is bounded. The conversation applies the bound when it takes a
result in, so a resumed session sends the same bounded text a live one did.
*/
import {estimateTokens} from './token-estimate.js';

export type ToolResultBudget = {
	/** Tokens one result may send. */
	readonly perResultTokens: number;
	/** Tokens all the results of one step may send together (a step that runs ten `cat`s). */
	readonly perStepTokens: number;
};

/** The least a result is given, however full its step: a stub that says nothing helps no one. */
const MIN_RESULT_TOKENS = 200;
/** Of what is kept, the share that is the head (the rest is the tail). */
const HEAD_SHARE = 0.6;

/** Where the whole of a result can be found, for the note. */
export type ResultPlace = {readonly callId: string; readonly seq: number; readonly spillPath?: string};

/** `text` as the model gets it within `tokens` (itself when it fits). */
export function boundResult(text: string, tokens: number, place: ResultPlace): string {
	const limit = Math.max(MIN_RESULT_TOKENS, Math.floor(tokens));
	const total = estimateTokens(text);
	if (total <= limit) {
		return text;
	}

	// Characters per token in this text, so that the kept part is about `limit` tokens of it.
	const perToken = text.length / total;
	const keep = Math.max(0, Math.floor((limit - 60) * perToken));
	const head = cutAtLine(text.slice(0, Math.floor(keep * HEAD_SHARE)), 'end');
	const tail = cutAtLine(text.slice(text.length - (keep - Math.floor(keep * HEAD_SHARE))), 'start');
	const elided = text.slice(head.length, text.length - tail.length);
	const firstLine = lineCount(text.slice(0, head.length)) + 1;
	const lines = lineCount(elided);
	const where = `the whole output is on the card of call ${place.callId} (log seq ${place.seq})${place.spillPath === undefined ? '' : ` and in ${place.spillPath}`}`;
	const span = lines > 1 ? `lines ${firstLine}–${firstLine + lines - 1}, ` : '';
	const note = `[… ${span}${elided.length.toLocaleString('en-US')} characters (about ${estimateTokens(elided).toLocaleString('en-US')} tokens) left out here to fit the context budget; ${where}. Ask for the part you need (a line range, a pattern) …]`;
	return `${head}${head.endsWith('\n') || head === '' ? '' : '\n'}${note}\n${tail}`;
}

/** A spill file's path in a result's `meta` (the shell keeps one for output it truncated), at most two levels down. */
export function spillPathOf(meta: unknown, depth = 0): string | undefined {
	if (typeof meta !== 'object' || meta === null || depth > 2) {
		return undefined;
	}

	for (const [key, value] of Object.entries(meta)) {
		if (key === 'spillPath' && typeof value === 'string' && value !== '') {
			return value;
		}

		const inner = typeof value === 'object' ? spillPathOf(value, depth + 1) : undefined;
		if (inner !== undefined) {
			return inner;
		}
	}

	return undefined;
}

function cutAtLine(text: string, side: 'start' | 'end'): string {
	if (side === 'end') {
		const at = text.lastIndexOf('\n');
		// A head without a line break within its last fifth is cut mid-line (one huge line).
		return at >= text.length * 0.8 ? text.slice(0, at + 1) : text;
	}

	const at = text.indexOf('\n');
	return at !== -1 && at <= text.length * 0.2 ? text.slice(at + 1) : text;
}

function lineCount(text: string): number {
	if (text === '') {
		return 0;
	}

	let lines = 1;
	for (let at = text.indexOf('\n'); at !== -1 && at < text.length - 1; at = text.indexOf('\n', at + 1)) {
		lines++;
	}

	return lines;
}
