/**
@module HTML to Markdown for `web_fetch`, with turndown and its GFM plugin (tables, strikethrough,
task lists). Scripts, styles and other non-content elements are dropped.
*/
import {createRequire} from 'node:module';
import type TurndownService from 'turndown';

/** turndown and its DOM parser load on the first HTML fetch, not with every command that lists the tools. */
const require = createRequire(import.meta.url);
let turndown: {readonly Service: typeof TurndownService; readonly gfm: TurndownService.Plugin} | undefined;
function loadTurndown(): NonNullable<typeof turndown> {
	turndown ??= {Service: require('turndown') as typeof TurndownService, gfm: (require('turndown-plugin-gfm') as {gfm: TurndownService.Plugin}).gfm};
	return turndown;
}

/** Elements whose text is never content. */
const droppedElements: TurndownService.Filter = ['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed'];

/**
Nesting beyond this is passed raw: turndown recurses per element (the stack runs out near 2 000
levels) and the parser's cost grows with depth squared, so deep input would hang or throw.
*/
const maxConvertibleDepth = 512;

/** Elements that never contain others, or that the parser closes implicitly, so they add no depth. */
const flatElements = new Set([
	'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr',
	'p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'option', 'optgroup', 'rt', 'rp', 'colgroup', 'thead', 'tbody', 'tfoot',
]);

/** A cheap over-estimate-free scan: whether the element nesting of `html` exceeds `limit`. */
export function nestingExceeds(html: string, limit: number): boolean {
	const tag = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)[^>]*?(\/?)>/g;
	let depth = 0;
	for (const match of html.matchAll(tag)) {
		const name = match[2]!.toLowerCase();
		if (flatElements.has(name) || match[3] === '/') {
			continue;
		}

		if (match[1] === '/') {
			depth = Math.max(0, depth - 1);
		} else if (++depth > limit) {
			return true;
		}
	}

	return false;
}

/**
Convert an HTML document or fragment to Markdown. Too deep a document, or one turndown cannot
handle, is returned as it came (`converted: false`): still readable text for a model.
*/
export function htmlToMarkdown(html: string): {readonly markdown: string; readonly converted: boolean} {
	if (nestingExceeds(html, maxConvertibleDepth)) {
		return {markdown: html, converted: false};
	}

	const {Service, gfm} = loadTurndown();
	const service = new Service({headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_'});
	service.use(gfm);
	service.remove(droppedElements);
	try {
		return {markdown: service.turndown(html), converted: true};
	} catch {
		return {markdown: html, converted: false};
	}
}
