/**
@module The cheap top-level block splitter of Markdown messages: a message is cut into blocks at
blank lines outside code fences (a line indented after a blank line continues its block, as a list
item's second paragraph does), and a fence at column 0 is a block of its own. Each block is laid out
(and cached) alone, so a streamed message re-splits and re-lays-out only its last block on append.

A block boundary depends only on whole lines before it, so when the text grows by appending, every
block but the last (or the last two, when the last one starts on the still-growing final line) is
final: `extendSplit` re-splits from there.
*/

/** A top-level fenced code block: laid out without the Markdown lexer. */
export type FenceBlock = {
	readonly kind: 'fence';
	readonly text: string;
	readonly start: number;
	/** The opening fence (```` ``` ```` or `~~~`, as written) and its info string's first word. */
	readonly marker: string;
	readonly lang: string;
	/** Whether a closing fence ended it (a message still streaming may not have one yet). */
	readonly closed: boolean;
};

/** Any other top-level block: lexed by `marked`. */
export type MarkdownTextBlock = {
	readonly kind: 'markdown';
	readonly text: string;
	readonly start: number;
	/** Link reference definitions (`[label]: url`) it holds, for the other blocks' reference links. */
	readonly definitions?: ReadonlyArray<readonly [label: string, href: string]>;
};

/**
Text past the Markdown bounds, shown as plain text: a chunk of whole lines. `joined`: it continues
the block before it in the source (no blank line between them), so no blank row separates them.
*/
export type PlainBlock = {readonly kind: 'plain'; readonly text: string; readonly start: number; readonly joined: boolean};

export type MarkdownBlock = FenceBlock | MarkdownTextBlock | PlainBlock;

/**
Characters of a message laid out as Markdown, and blocks at most: from the first line past either
bound, the rest is plain text (so a hostile 50 MB message costs what plain text costs, and the
lexer's worst case is paid for a bounded amount of text).
*/
export const MARKDOWN_MAX_CHARS = 256 * 1024;
export const MARKDOWN_MAX_BLOCKS = 1000;

/** Plain text is cut into chunks of about this many characters (at line breaks), so an append re-lays-out only the last. */
export const PLAIN_CHUNK_CHARS = 64 * 1024;

/** A message cut into blocks. */
export type MarkdownSplit = {readonly text: string; readonly blocks: readonly MarkdownBlock[]};

const fenceOpening = /^(`{3,}|~{3,})(.*)$/;
const blankLine = /^[ \t]*$/;
const indented = /^[ \t]/;
const definitionLine = /^ {0,3}\[((?:\\.|[^\\[\]\n]){1,999})\]:[ \t]*(<[^<>\n]*>|[^\s<>]+)/gm;

/** The label as marked normalizes it (case folded, inner whitespace collapsed). */
export function normalizeLabel(label: string): string {
	return label.trim().replaceAll(/\s+/g, ' ').toLowerCase().toUpperCase().toLowerCase();
}

function definitionsOf(text: string): MarkdownTextBlock['definitions'] {
	if (!text.includes(']:')) {
		return undefined;
	}

	const found: Array<readonly [string, string]> = [];
	for (const match of text.matchAll(definitionLine)) {
		const href = match[2]!;
		found.push([normalizeLabel(match[1]!), href.startsWith('<') ? href.slice(1, -1) : href]);
	}

	return found.length === 0 ? undefined : found;
}

function isClosingFence(line: string, marker: string): boolean {
	const trimmed = line.replace(/^ {0,3}/, '');
	if (trimmed[0] !== marker[0]) {
		return false;
	}

	let run = 0;
	while (run < trimmed.length && trimmed[run] === marker[0]) {
		run++;
	}

	return run >= marker.length && blankLine.test(trimmed.slice(run));
}

/** Cut `text` from `from` (a line start) into plain chunks of whole lines. */
function plainFrom(text: string, from: number, blocks: MarkdownBlock[]): void {
	let start = from;
	while (start < text.length) {
		const lineBreak = text.indexOf('\n', start + PLAIN_CHUNK_CHARS);
		const end = lineBreak < 0 ? text.length : lineBreak;
		const previousLine = text.slice(text.lastIndexOf('\n', start - 2) + 1, Math.max(0, start - 1));
		const joined = blocks.at(-1)?.kind === 'plain' || !blankLine.test(previousLine);
		blocks.push({kind: 'plain', text: text.slice(start, end), start, joined});
		start = end + 1;
	}
}

/** Split `text` from offset `from` (a block start) into blocks. */
function splitFrom(text: string, from: number, blocks: MarkdownBlock[]): void {
	if (from > 0 && blocks.at(-1)?.kind === 'plain') {
		plainFrom(text, from, blocks);
		return;
	}

	let start = -1;
	let end = -1;
	let sawBlank = false;
	let fence: {marker: string; lang: string} | undefined;
	const close = (closed = false) => {
		if (start >= 0) {
			const blockText = text.slice(start, end);
			blocks.push(fence === undefined
				? {kind: 'markdown', text: blockText, start, ...(definitionsOf(blockText) === undefined ? {} : {definitions: definitionsOf(blockText)})}
				: {kind: 'fence', text: blockText, start, marker: fence.marker, lang: fence.lang, closed});
		}

		start = -1;
		fence = undefined;
		sawBlank = false;
	};

	let position = from;
	while (position <= text.length) {
		if (position >= MARKDOWN_MAX_CHARS || blocks.length >= MARKDOWN_MAX_BLOCKS) {
			close();
			plainFrom(text, position, blocks);
			return;
		}

		let lineEnd = text.indexOf('\n', position);
		if (lineEnd < 0) {
			lineEnd = text.length;
		}

		const raw = text.slice(position, lineEnd);
		const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
		if (fence !== undefined) {
			end = lineEnd;
			if (isClosingFence(line, fence.marker)) {
				close(true);
			}
		} else if (blankLine.test(line)) {
			sawBlank = start >= 0;
		} else {
			const opening = fenceOpening.exec(line);
			if (opening !== null && !(opening[1]!.startsWith('`') && opening[2]!.includes('`'))) {
				close();
				start = position;
				end = lineEnd;
				fence = {marker: opening[1]!, lang: opening[2]!.trim().split(/\s/)[0] ?? ''};
			} else if (start >= 0 && (!sawBlank || indented.test(line))) {
				end = lineEnd;
				sawBlank = false;
			} else {
				close();
				start = position;
				end = lineEnd;
			}
		}

		position = lineEnd + 1;
	}

	close();
}

/** `text` cut into top-level blocks. */
export function splitMarkdown(text: string): MarkdownSplit {
	const blocks: MarkdownBlock[] = [];
	splitFrom(text, 0, blocks);
	return {text, blocks};
}

/**
The split of `text`, which extends `previous.text` by appending: the blocks that cannot change are
reused (same objects), and only the text from the first block that may change is split again.
*/
export function extendSplit(previous: MarkdownSplit, text: string): MarkdownSplit {
	if (!text.startsWith(previous.text)) {
		return splitMarkdown(text);
	}

	if (text.length === previous.text.length) {
		return previous;
	}

	const kept = [...previous.blocks];
	let last = kept.pop();
	// A block that starts on the old text's unfinished last line may turn out to continue the one before it.
	if (last !== undefined && !previous.text.includes('\n', last.start)) {
		last = kept.pop() ?? last;
	}

	splitFrom(text, last?.start ?? 0, kept);
	return {text, blocks: kept};
}
