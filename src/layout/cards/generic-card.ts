/**
@module The generic card body: a pending call's input, or a result's content. The header already
carries the title, so the body never repeats it.
*/
import type {CardResult} from '../../presentation/card.js';
import type {ContentBlock} from '../../tools/content.js';
import type {GenericCallView} from '../../tools/views.js';
import {type BodyContext, contentRows, textRows} from './body-text.js';
import type {CardBody} from './card-body.js';
import {sanitizeInline} from '../text/sanitize.js';
import {span, truncateSpans, wrapSpans} from '../text/spans.js';
import type {StyledLine} from '../text/styled-line.js';
import {BodyRows, type RowTarget} from './body-rows.js';
import {hiddenTextNote, outputRows} from './terminal-card.js';
import type {Theme} from '../text/theme.js';

/** A pending input shown as text: a string verbatim, anything else as 2-space JSON. */
export function rawInputText(rawInput: unknown): string {
	if (typeof rawInput === 'string') {
		return rawInput;
	}

	try {
		return JSON.stringify(rawInput, null, 2) ?? String(rawInput);
	} catch {
		return String(rawInput);
	}
}

/**
A pending generic call: its raw input in the default tone, then any extra blocks. With live
`progress` (a running tool's output tail), those rows are pinned and the output follows them.
*/
export function layoutGenericCallBody(view: GenericCallView, context: BodyContext, progress?: string): CardBody {
	const live = progress !== undefined && progress !== '';
	const lines = new BodyRows(context.keep, {pinned: live});
	if (view.rawInput !== undefined) {
		const text = rawInputText(view.rawInput);
		if (text !== '') {
			textRows(text, context.theme.input, context.width, lines);
		}
	}

	if (view.content !== undefined) {
		contentRows(view.content, context.theme.body, context, lines);
	}

	if (!live) {
		return lines.body();
	}

	lines.pin();
	const note = outputRows(progress, context, lines) ? hiddenTextNote(context) : [];
	lines.pushAll(note);
	return lines.body(note.length);
}

/**
Recolours the first logical line with text (its soft-wrapped continuation rows included) in the
error role as rows pass through, so a failure's message stands out however long the body is.
*/
class FirstLineInError implements RowTarget {
	#state: 'before' | 'inside' | 'after' = 'before';

	constructor(private readonly into: RowTarget, private readonly theme: Theme) {}

	push(line: StyledLine): void {
		if (this.#state === 'inside' && !line.softWrap) {
			this.#state = 'after';
		}

		if (this.#state === 'before' && line.spans.length > 0) {
			this.#state = 'inside';
		}

		this.into.push(this.#state === 'inside' ? {...line, spans: line.spans.map(item => span(item.text, this.theme.error, item.link))} : line);
	}
}

/**
A completed generic body: the content in the body tone. A failure's first line (the error message)
takes the error role and its classed code is a pinned footer, so a fold never hides either.
*/
export function layoutGenericResultBody(content: readonly ContentBlock[], result: CardResult | null, context: BodyContext): CardBody {
	const {theme, width} = context;
	const lines = new BodyRows(context.keep);
	if (result?.isError !== true) {
		contentRows(content, theme.body, context, lines);
		return lines.body();
	}

	contentRows(content, theme.body, context, new FirstLineInError(lines, theme));
	if (result.error === undefined) {
		return lines.body();
	}

	// The message says what went wrong; the class and code are for looking it up: dim.
	const code = `${sanitizeInline(result.error.name)} · ${sanitizeInline(result.error.code)}`;
	const footer = wrapSpans([span(code, theme.muted)], width);
	lines.pushAll(footer);
	const message = firstTextLine(content);
	const summary = {spans: truncateSpans(message === undefined ? [span(code, theme.muted)] : [span(message, theme.error), span(` · ${code}`, theme.muted)], width)};
	return {...lines.body(footer.length), summary};
}

/** The first non-blank line of the content's text, as one row of text. */
function firstTextLine(content: readonly ContentBlock[]): string | undefined {
	for (const block of content) {
		if (block.type === 'text') {
			const line = block.text.split('\n').find(candidate => candidate.trim() !== '');
			if (line !== undefined) {
				return sanitizeInline(line.trim());
			}
		}
	}

	return undefined;
}
