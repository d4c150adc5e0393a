/**
@module A transcript as one self-contained HTML page (`cardterm export`): the same styled rows the
terminal shows (layoutEntry), each span a `<span>` with its style as classes, each card a `<details>`
whose summary is the card's header row, so it collapses and expands as in the pager. No script, no
font, no request: a Content-Security-Policy of `default-src 'none'` (inline styles only) makes a
hostile log's text unable to run or load anything, and every text is escaped. Light and dark follow
the reader's colour scheme; the browser's find searches it (a closed card opens on a match).
*/
import type {Span, Style} from '../text/styled-line.js';
import type {StyledLine} from '../text/styled-line.js';
import {ANSI_HTML_PALETTES} from './html-palette.js';

/** One transcript entry as rows: a card's first row is its header. */
export type PageEntry = {readonly kind: string; readonly rows: readonly StyledLine[]; readonly outcome?: string};

/** What the page says above the transcript. */
export type PageHead = {
	readonly title: string;
	/** Lines of facts: the agent, when, where. */
	readonly facts: readonly string[];
	/** The cards by outcome, as the status line words it. */
	readonly tally: string;
	/** What was redacted, where; `undefined`: redaction was off. */
	readonly redactions: readonly string[] | undefined;
};

const escapes: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\'': '&#39;'};

/** Text safe inside HTML text and attribute values. */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, character => escapes[character]!);
}

function colorCss(color: string | number, property: 'color' | 'background-color'): string | undefined {
	if (typeof color === 'string' && /^#[0-9a-f]{6}$/.test(color)) {
		return `${property}:${color}`;
	}

	return undefined;
}

function spanHtml(span: Span): string {
	const given: Style = span.style ?? {};
	// Inverse draws the text's colour behind it: swapped here, as a terminal swaps them.
	const style: Style = given.inverse === true ? {...given, fg: given.bg, bg: given.fg ?? 'foreground' as never, inverse: given.fg === undefined && given.bg === undefined} : given;
	const classes: string[] = given.inverse === true && given.fg !== undefined ? ['on-color'] : [];
	const inline: string[] = [];
	for (const [property, value] of [['color', style.fg], ['background-color', style.bg]] as const) {
		if (value === undefined) {
			continue;
		}

		if (typeof value === 'string' && !value.startsWith('#')) {
			classes.push(`${property === 'color' ? 'fg' : 'bg'}-${value}`);
		} else {
			const css = colorCss(value, property);
			if (css !== undefined) {
				inline.push(css);
			}
		}
	}

	for (const flag of ['bold', 'dim', 'italic', 'underline', 'inverse', 'strikethrough'] as const) {
		if (style[flag] === true) {
			classes.push(flag);
		}
	}

	const text = escapeHtml(span.text);
	const attributes = `${classes.length === 0 ? '' : ` class="${classes.join(' ')}"`}${inline.length === 0 ? '' : ` style="${inline.join(';')}"`}`;
	const body = attributes === '' ? text : `<span${attributes}>${text}</span>`;
	// Only web links: a file link would point into the writer's machine.
	return span.link !== undefined && /^https?:\/\//.test(span.link) ? `<a href="${escapeHtml(span.link)}" rel="noopener noreferrer nofollow">${body}</a>` : body;
}

/** A row as one line of HTML (a soft-wrapped row continues its line). */
function rowHtml(row: StyledLine): string {
	return row.spans.map(span => spanHtml(span)).join('');
}

function rowsHtml(rows: readonly StyledLine[]): string {
	return rows.map(row => `<div class="row">${rowHtml(row) || ' '}</div>`).join('');
}

function entryHtml(entry: PageEntry): string {
	if (entry.kind === 'card' && entry.rows.length > 0) {
		const [header, ...body] = entry.rows;
		return `<details class="card ${escapeHtml(entry.outcome ?? '')}" open><summary>${rowHtml(header!)}</summary>${rowsHtml(body)}</details>`;
	}

	return `<div class="entry ${escapeHtml(entry.kind)}">${rowsHtml(entry.rows)}</div>`;
}

/*
The font stack: the system's monospace on macOS and Windows; on Linux, where none of those four
exists, DejaVu Sans Mono, and DejaVu Sans for the glyphs it lacks (outcome marks, arrows), both of
fonts-dejavu-core, which fontconfig (and so Debian's chromium) always brings: the page then renders
the same on every Debian machine, CI's screenshots included, whatever other fonts it has.
*/
const CSS = `
:root{color-scheme:light dark}
body{margin:0;font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono","DejaVu Sans",monospace;background:var(--bg);color:var(--fg)}
header{padding:12px 16px;border-bottom:1px solid var(--rule)}
header h1{font-size:16px;margin:0 0 4px}
header p{margin:2px 0}
.redactions{margin:6px 0 0;padding-left:18px}
.off{color:var(--red);font-weight:bold}
main{padding:8px 16px}
.row{white-space:pre-wrap;word-break:break-word;min-height:1.45em}
.entry,.card{margin:0 0 6px}
details.card>summary{cursor:pointer;list-style:none}
details.card>summary::-webkit-details-marker{display:none}
details.card>summary:focus-visible{outline:1px dotted var(--fg)}
details.card:not([open])>summary{opacity:.85}
.bold{font-weight:bold}.dim{opacity:.65}.italic{font-style:italic}.underline{text-decoration:underline}.strikethrough{text-decoration:line-through}
.inverse{background:var(--fg);color:var(--bg)}.on-color{color:var(--bg)}.bg-foreground{background:var(--fg)}
a{color:inherit}
`;

function paletteCss(): string {
	const rules = (palette: Readonly<Record<string, string>>): string => Object.entries(palette).map(([name, value]) => `.fg-${name}{color:${value}}.bg-${name}{background-color:${value}}`).join('');
	const {light, dark} = ANSI_HTML_PALETTES;
	return `:root{--bg:${light.background};--fg:${light.foreground};--rule:${light.rule};--red:${light.red}}${rules(light.colors)}`
		+ `@media (prefers-color-scheme:dark){:root{--bg:${dark.background};--fg:${dark.foreground};--rule:${dark.rule};--red:${dark.red}}${rules(dark.colors)}}`;
}

/** The whole page. */
export function htmlPage(head: PageHead, entries: Iterable<PageEntry>): string {
	const parts: string[] = [
		'<!doctype html>',
		'<html lang="en"><head><meta charset="utf-8">',
		// Nothing runs, nothing loads: inline styles and data images only.
		'<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'; img-src data:; base-uri \'none\'; form-action \'none\'">',
		'<meta name="viewport" content="width=device-width,initial-scale=1">',
		'<meta name="referrer" content="no-referrer">',
		`<title>${escapeHtml(head.title)}</title>`,
		`<style>${CSS}${paletteCss()}</style>`,
		'</head><body>',
		`<header><h1>${escapeHtml(head.title)}</h1>`,
		...head.facts.map(fact => `<p>${escapeHtml(fact)}</p>`),
		`<p class="tally">${escapeHtml(head.tally)}</p>`,
		head.redactions === undefined
			? '<p class="off">REDACTION IS OFF: this page may hold keys, tokens and passwords from the session.</p>'
			: (head.redactions.length === 0 ? '<p class="redacted">redacted: nothing of a known secret shape was found</p>' : `<p class="redacted">redacted (each replaced by [REDACTED:KIND]):</p><ul class="redactions">${head.redactions.map(line => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`),
		'</header><main>',
	];
	for (const entry of entries) {
		parts.push(entryHtml(entry));
	}

	parts.push('</main></body></html>\n');
	return parts.join('');
}
