/**
@module The terminal card body: description, `$ command` (every line of a multi-line command), the
working directory when it is not the session's, the output with its SGR colours as styles, and an
`[exit N]` / `[signal X]` / `[cancelled]` footer. The command block and footer are pinned, so a fold
keeps what ran and how it ended. While running, the live progress tail is the output; a command
cancelled while it ran keeps the output it printed before.
*/
import * as path from 'node:path';
import type {Card, CardProgress} from '../../presentation/card.js';
import type {TerminalCallView, TerminalResultView} from '../../tools/views.js';
import {type BodyContext, footerOnly, textRows} from './body-text.js';
import {BodyRows, type RowTarget} from './body-rows.js';
import type {CardBody} from './card-body.js';
import {sanitizeInline} from '../text/sanitize.js';
import {span, wrapSpans} from '../text/spans.js';
import type {Span, StyledLine, Style} from '../text/styled-line.js';
import {emulateTerminalOutput, outputHidesText, rawOutputLines} from '../terminal/terminal-output.js';
import type {Theme} from '../text/theme.js';
import {pushAll} from '../text/push-all.js';

/** Lines the producer adds to say *it* cut or stopped the output; drawn in the warning role. */
const toolMarker = /^(\[(output truncated|timed out after|result truncated)|\(Omitted \d+ bytes\.)/;

/** A truncation marker as the card words it: bash's `(unavailable)` spill path says nothing to a reader. */
function markerText(text: string): string {
	return text === '[output truncated; full output: (unavailable)]' ? '[output truncated; the full output was not kept]' : text;
}

/** The separator bash prints before stderr: structure, not output. */
const stderrMarker = /^\[stderr\]$/;

/** The cwd to show, or undefined when it is the session's own (or unknown). Relative stays relative. */
function displayCwd(cwd: string | undefined, sessionCwd: string | undefined): string | undefined {
	if (cwd === undefined || cwd === '') {
		return undefined;
	}

	if (sessionCwd === undefined) {
		return cwd;
	}

	const resolved = path.posix.resolve(sessionCwd, cwd);
	if (resolved === path.posix.resolve(sessionCwd)) {
		return undefined;
	}

	const relative = path.posix.relative(sessionCwd, resolved);
	return relative !== '' && !relative.startsWith('..') ? relative : resolved;
}

/**
Map a style the command asked for onto the theme: plain text is the body tone. Monochrome has no
colour: both colours go, and a background becomes inverse, so a ` PASS ` badge or a highlighted name
still stands out (and a black-on-green name never becomes black text on the default background).
*/
function outputStyle(style: Style | undefined, theme: Theme): Style {
	if (style === undefined) {
		return theme.body;
	}

	if (theme.name === 'monochrome' && (style.fg !== undefined || style.bg !== undefined)) {
		const {fg: _fg, bg, ...rest} = style;
		return bg === undefined ? rest : {...rest, inverse: true};
	}

	return style;
}

/**
The command output a card's body shows (layout-card.ts picks the body): a terminal result's output,
or, before any result, a running terminal or generic call's live progress.
*/
function shownOutput(card: Card): string | undefined {
	if (card.resultView !== null) {
		return card.resultView.card === 'terminal' ? card.resultView.output : undefined;
	}

	if (card.result === null && (card.callView.card === 'terminal' || card.callView.card === 'generic')) {
		return card.progress?.text;
	}

	return undefined;
}

/** Whether the card's command output, as the card shows it, hides text the command wrote (terminal-output.ts). */
export function cardOutputHidesText(card: Card): boolean {
	const output = shownOutput(card);
	return output !== undefined && outputHidesText(output);
}

/** The note a card shows when its command output hides text: pinned, so no fold hides it. */
export function hiddenTextNote(context: BodyContext): StyledLine[] {
	const text = context.expansion === 'full' ? 'raw output · controls shown escaped' : 'output hides text · expand to show raw';
	return textRows(text, context.theme.muted, context.width);
}

/** A line of output with nothing but blanks: spacing, not content. */
function isBlankLine(line: readonly Span[]): boolean {
	return line.every(item => item.text.trim() === '');
}

/**
Command output as wrapped rows, appended to `rows`. Returns whether the emulated output hides text
the command wrote (terminal-output.ts); a `full` layout then shows the raw output instead, and the
caller adds `hiddenTextNote`.
*/
export function outputRows(output: string, context: BodyContext, rows: RowTarget, {firstLine = false}: {readonly firstLine?: boolean} = {}): boolean {
	const {theme, width} = context;
	// Only the first line with text (a summary's row): the emulation stops there.
	const screen = firstLine ? emulateTerminalOutput(output, lines => !isBlankLine(lines.at(-1)!)) : emulateTerminalOutput(output);
	if (screen.hidesText && context.expansion === 'full') {
		for (const line of rawOutputLines(output)) {
			pushAll(rows, wrapSpans(line === '' ? [] : [span(line, theme.body)], width));
		}

		return true;
	}

	const parsed = screen.lines;
	// Blank lines around the output are spacing, not content: they would only cost fold budget.
	let start = 0;
	let end = parsed.length;
	while (start < end && isBlankLine(parsed[start]!)) {
		start++;
	}

	while (end > start && isBlankLine(parsed[end - 1]!)) {
		end--;
	}

	// Plain stdout is the body tone; after bash's `[stderr]` separator plain text takes the stderr tone.
	let plain = theme.body;
	for (let index = start; index < end; index++) {
		const line = parsed[index]!;
		const first = line[0]?.text[0];
		// Markers start with `[` or `(`; checking that first keeps the common line cheap.
		const text = first === '[' || first === '(' ? line.map(item => item.text).join('') : '';
		let spans: Span[];
		if (text !== '' && toolMarker.test(text)) {
			spans = [span(markerText(text), theme.warning)];
		} else if (text !== '' && stderrMarker.test(text)) {
			spans = [span(text, theme.muted)];
			plain = theme.stderr;
		} else {
			spans = line.map(item => (item.style === undefined ? span(item.text, plain) : span(item.text, outputStyle(item.style, theme))));
		}

		pushAll(rows, wrapSpans(spans, width));
	}

	return screen.hidesText;
}

/** The `$ command` rows: the first line after `$ `, further lines as they are (no indent to copy). */
function commandRows(command: string, context: BodyContext): StyledLine[] {
	const {theme, width} = context;
	const rows: StyledLine[] = [];
	// Each line of the command is a one-row field: zero-width and bidi characters are shown escaped.
	command.split(/\r?\n/).map(line => sanitizeInline(line)).forEach((line, index) => {
		const spans = index === 0 ? [span('$ ', theme.muted), span(line, theme.input)] : [span(line, theme.input)];
		pushAll(rows, wrapSpans(spans, width));
	});
	return rows;
}

/**
The output rows a summary can show (fold-body.ts `summaryRow`): none when the body pins a footer —
an `[exit N]`, a signal, the hidden-text note — since the summary is its last row; else the first
line with text, or for a failure (its last row) all of them. Returns whether the output hides text.
*/
function summaryOutputRows(result: TerminalResultView, output: string, context: BodyContext, rows: RowTarget, cancelled: boolean): boolean {
	const hidesText = outputHidesText(output);
	const footer = hidesText || cancelled || result.signal !== undefined || (result.exitCode !== undefined && result.exitCode !== 0);
	if (!footer) {
		outputRows(output, context, rows, {firstLine: context.summaryFromEnd !== true});
	}

	return hidesText;
}

/** Inputs of a terminal body: the call view (extras), the result view, and live progress. */
export type TerminalBodyInput = {
	/** The pending view; description and cwd come only from it. */
	readonly call?: TerminalCallView;
	readonly result?: TerminalResultView;
	/** The live output tail of a running command. */
	readonly progress?: CardProgress;
	/** The card's outcome is `cancelled`: the result's output is what the command printed before the cancel. */
	readonly cancelled?: boolean;
};

/** The terminal card body. */
export function layoutTerminalBody(input: TerminalBodyInput, context: BodyContext): CardBody {
	const {theme, width} = context;
	const {call, result} = input;
	const lines = new BodyRows(context.keep, {pinned: true});
	// A description that only repeats the command (as for `!command` typed at the prompt) adds nothing.
	if (call?.description !== undefined && call.description !== '' && call.description.trim() !== call.title.trim()) {
		lines.pushAll(wrapSpans([span(sanitizeInline(call.description), theme.muted)], width));
	}

	// A result that names the command (an ACP call first seen before its command was known) is what ran.
	const command = result?.title ?? call?.title ?? '';
	if (command !== '') {
		lines.pushAll(commandRows(command, context));
	}

	const cwd = displayCwd(call?.cwd, context.sessionCwd);
	if (cwd !== undefined) {
		lines.pushAll(wrapSpans([span(`in ${sanitizeInline(cwd)}`, theme.muted)], width));
	}

	lines.pin();
	let hidesText = false;
	if (result !== undefined) {
		if (result.output !== undefined) {
			hidesText = footerOnly(context) ? summaryOutputRows(result, result.output, context, lines, input.cancelled === true) : outputRows(result.output, context, lines);
		}
	} else if (input.progress !== undefined) {
		if (input.progress.truncated) {
			lines.pushAll(textRows('… earlier output dropped', theme.muted, width));
		}

		hidesText = outputRows(input.progress.text, context, lines);
	}

	const footer: StyledLine[] = hidesText ? hiddenTextNote(context) : [];
	if (result !== undefined && input.cancelled === true) {
		pushAll(footer, wrapSpans([span('[cancelled]', theme.warning)], width));
	} else if (result?.signal !== undefined) {
		pushAll(footer, wrapSpans([span(`[signal ${sanitizeInline(result.signal)}]`, theme.error)], width));
	} else if (result?.exitCode !== undefined && result.exitCode !== 0) {
		pushAll(footer, wrapSpans([span(`[exit ${result.exitCode}]`, theme.error)], width));
	}

	lines.pushAll(footer);
	return lines.body(footer.length);
}
