/**
@module The generic card body: a pending call's input, or a result's content. The header already
carries the title, so the body never repeats it.
*/
import type {CardResult} from '../presentation/card.js';
import type {ContentBlock} from '../tools/content.js';
import type {GenericCallView} from '../tools/views.js';
import {type BodyContext, contentRows, textRows} from './body-text.js';
import type {CardBody} from './card-body.js';
import {sanitizeInline} from './sanitize.js';
import {span, wrapSpans} from './spans.js';
import type {StyledLine} from './styled-line.js';
import {pushAll} from './push-all.js';

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

/** A pending generic call: its raw input in the default tone, then any extra blocks. */
export function layoutGenericCallBody(view: GenericCallView, context: BodyContext): CardBody {
	const lines: StyledLine[] = [];
	if (view.rawInput !== undefined) {
		const text = rawInputText(view.rawInput);
		if (text !== '') {
			pushAll(lines, textRows(text, context.theme.input, context.width));
		}
	}

	if (view.content !== undefined) {
		pushAll(lines, contentRows(view.content, context.theme.body, context));
	}

	return {lines};
}

/**
A completed generic body: the content in the body tone. A failure's first line (the error message)
takes the error role and its classed code is a pinned footer, so a fold never hides either.
*/
export function layoutGenericResultBody(content: readonly ContentBlock[], result: CardResult | null, context: BodyContext): CardBody {
	const {theme, width} = context;
	const lines = contentRows(content, theme.body, context);
	if (result?.isError !== true) {
		return {lines};
	}

	const firstText = lines.findIndex(line => line.spans.length > 0);
	if (firstText >= 0) {
		// Recolour the whole first logical line, soft-wrapped continuation rows included.
		for (let index = firstText; index < lines.length && (index === firstText || lines[index]!.softWrap); index++) {
			const line = lines[index]!;
			lines[index] = {...line, spans: line.spans.map(item => span(item.text, theme.error, item.link))};
		}
	}

	if (result.error === undefined) {
		return {lines};
	}

	const footer = wrapSpans([span(`${sanitizeInline(result.error.name)} · ${sanitizeInline(result.error.code)}`, theme.error)], width);
	return {lines: [...lines, ...footer], pinnedBottom: footer.length};
}
