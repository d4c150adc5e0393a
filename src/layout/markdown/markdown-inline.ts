/**
@module Markdown inline tokens as styled spans. Emphasis is italic, strong bold, strikethrough struck,
inline code the theme's code style; a link is underlined text with `Span.link` set only when
`safeLinkTarget` accepts it as http(s), followed by its URL when the text differs; an image is
`[image alt]`; raw HTML is shown as the text it is. Every text passes the one sanitize rule. A hard
break (`br`) starts a new logical line; a soft break is a space.
*/
import type {Token, Tokens} from 'marked';
import {safeLinkTarget} from '../text/link-target.js';
import {sanitizeLine} from '../text/sanitize.js';
import {span} from '../text/spans.js';
import type {Span, Style} from '../text/styled-line.js';
import type {Theme} from '../text/theme.js';

const namedEntities: Readonly<Record<string, string>> = {amp: '&', lt: '<', gt: '>', quot: '"', apos: '\'', nbsp: '\u00A0'};

/**
Character references as the characters they stand for (`&amp;` → `&`, `&#x41;` → `A`): marked leaves
them for an HTML renderer to decode. Only the common named ones are known; others stay as written.
The result is sanitized like any text, so `&#27;` shows as `\x1b`.
*/
export function decodeEntities(text: string): string {
	if (!text.includes('&')) {
		return text;
	}

	return text.replaceAll(/&(?:#(\d{1,7})|#[xX]([\da-fA-F]{1,6})|([a-zA-Z]{2,6}));/g, (whole, decimal?: string, hex?: string, name?: string) => {
		if (name !== undefined) {
			return namedEntities[name] ?? whole;
		}

		const codePoint = decimal === undefined ? Number.parseInt(hex!, 16) : Number.parseInt(decimal, 10);
		return codePoint === 0 || codePoint > 0x10_ffff ? '\uFFFD' : String.fromCodePoint(codePoint);
	});
}

/** Visible text: newlines (soft breaks) become spaces, then the sanitize rule. */
function visible(text: string): string {
	return sanitizeLine(text.replaceAll('\n', ' '));
}

function merge(outer: Style, inner: Style): Style {
	return {...outer, ...inner};
}

/** The plain text of inline tokens, as shown (for comparing a link's text with its URL). */
function plainText(tokens: readonly Token[]): string {
	let text = '';
	for (const token of tokens) {
		text += 'tokens' in token && Array.isArray(token.tokens) ? plainText(token.tokens) : ('text' in token && typeof token.text === 'string' ? token.text : '');
	}

	return text;
}

type Sink = {lines: Span[][]; readonly theme: Theme};

function current(sink: Sink): Span[] {
	return sink.lines.at(-1)!;
}

function linkSpans(token: Tokens.Link, style: Style, sink: Sink): void {
	const target = safeLinkTarget(token.href, {web: true});
	const linkStyle = merge(style, sink.theme.link);
	const before = current(sink).length;
	walk(token.tokens, linkStyle, sink);
	if (target !== undefined) {
		// Only this line's spans: a hard break inside link text is rare and its later lines stay unlinked.
		const line = current(sink);
		for (let index = before; index < line.length; index++) {
			line[index] = span(line[index]!.text, line[index]!.style, target);
		}
	}

	const text = plainText(token.tokens);
	if (text !== token.href && `mailto:${text}` !== token.href) {
		current(sink).push(span(` (${visible(token.href)})`, merge(style, sink.theme.muted), target));
	}
}

function walk(tokens: readonly Token[], style: Style, sink: Sink): void {
	for (const token of tokens) {
		switch (token.type) {
			case 'strong': {
				walk((token as Tokens.Strong).tokens, merge(style, {bold: true}), sink);
				break;
			}

			case 'em': {
				walk((token as Tokens.Em).tokens, merge(style, {italic: true}), sink);
				break;
			}

			case 'del': {
				walk((token as Tokens.Del).tokens, merge(style, {strikethrough: true}), sink);
				break;
			}

			case 'codespan': {
				current(sink).push(span(visible((token as Tokens.Codespan).text), merge(style, sink.theme.markdownCode)));
				break;
			}

			case 'link': {
				linkSpans(token as Tokens.Link, style, sink);
				break;
			}

			case 'image': {
				const alt = (token as Tokens.Image).text;
				current(sink).push(span(alt === '' ? '[image]' : `[image ${visible(decodeEntities(alt))}]`, merge(style, sink.theme.muted)));
				break;
			}

			case 'br': {
				sink.lines.push([]);
				break;
			}

			case 'checkbox': {
				// Task list markers are drawn by the list layout.
				break;
			}

			case 'html':
			case 'escape': {
				current(sink).push(span(visible(token.text as string), style));
				break;
			}

			default: {
				// `text`, and any token type a newer marked adds: its children, else its text.
				if ('tokens' in token && Array.isArray(token.tokens) && token.tokens.length > 0) {
					walk(token.tokens as Token[], style, sink);
				} else if ('text' in token && typeof token.text === 'string') {
					current(sink).push(span(visible(decodeEntities(token.text)), style));
				} else if (typeof token.raw === 'string') {
					current(sink).push(span(visible(token.raw), style));
				}
			}
		}
	}
}

/** Inline tokens as logical lines of spans (more than one only after a hard break). */
export function inlineLines(tokens: readonly Token[], style: Style, theme: Theme): Span[][] {
	const sink: Sink = {lines: [[]], theme};
	walk(tokens, style, sink);
	return sink.lines.map(line => line.filter(item => item.text !== ''));
}
