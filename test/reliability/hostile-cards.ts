/**
Cards of every kind (generic, terminal, diff, search matches and paths, read, web search and fetch)
on both sides (pending call view, completed result view, raw result content) and in every state,
whose every string field comes from a hostile pool: titles, commands, descriptions, cwd, paths,
file names, arguments, output, error classes and messages, approval reasons, URLs, ids.
*/
import type {Card} from '../../src/presentation/card.js';
import type {ContentBlock} from '../../src/tools/content.js';
import {makeCard, text} from '../layout/fixtures.js';

/** Picks strings from a pool round-robin, so every field of every card gets a hostile value. */
function picker(pool: readonly string[]): () => string {
	let index = 0;
	return () => {
		const value = pool.length === 0 ? '' : pool[index % pool.length]!;
		index++;
		return value;
	};
}

/** Every card kind in every state, built from `pool`. */
export function hostileCards(pool: readonly string[]): Card[] {
	const h = picker(pool);
	const blocks = (): ContentBlock[] => [
		{type: 'text', text: h()},
		{type: 'reasoning', text: h()},
		{type: 'image', attachment: {attachmentId: h(), mediaType: h(), bytes: 12, width: 3, height: 4, name: h()}},
	];
	const cards: Card[] = [
		// Generic call, running, with live progress and a pending approval.
		makeCard({
			name: h(), callId: h(), args: {[h()]: h()},
			callView: {card: 'generic', title: h(), kind: 'execute', rawInput: h(), content: blocks(), locations: [{path: h(), line: 3}, {path: h()}]},
			progress: {text: h(), truncated: true},
			approval: {state: 'asked', id: h(), reason: h()},
		}),
		// Generic call with structured input, failed with a classed error and raw content.
		makeCard({
			name: h(), args: {command: h()},
			callView: {card: 'generic', title: h(), rawInput: {[h()]: [h(), {[h()]: h()}]}},
			result: {content: blocks(), isError: true, error: {name: h(), code: h()}, view: null},
			approval: {state: 'decided', id: h(), reason: h(), outcome: h()},
		}),
		// Generic result view with a replacement title and content.
		makeCard({
			name: h(), callView: {card: 'generic', title: h(), kind: 'fetch'},
			result: {content: text(h()), view: {card: 'generic', title: h(), content: blocks()}},
		}),
		// Cancelled and interrupted generic cards.
		makeCard({name: h(), callView: {card: 'generic', title: h()}, result: {content: text(h()), isError: true, error: {name: 'AbortError', code: 'ABORTED'}}}),
		makeCard({name: h(), callView: {card: 'generic', title: h(), rawInput: h()}, interrupted: true}),
		// Terminal: running with progress, exited non-zero, killed by a signal, failed to start.
		makeCard({name: 'bash', args: {command: h()}, callView: {card: 'terminal', title: h(), description: h(), cwd: h()}, progress: {text: h(), truncated: false}}),
		makeCard({
			name: 'bash', args: {command: h()}, callView: {card: 'terminal', title: h(), description: h(), cwd: h()},
			result: {content: text(`${h()}\n[exit code: 2]`), view: {card: 'terminal', title: h(), output: h(), exitCode: 2}},
		}),
		makeCard({
			name: 'bash', callView: {card: 'terminal', title: h(), cwd: `/abs/${h()}`},
			result: {content: text(`${h()}\n[killed by signal: SIGTERM]`), view: {card: 'terminal', output: h(), signal: h()}},
		}),
		makeCard({name: 'bash', callView: {card: 'terminal', title: h()}, result: {content: text(h()), isError: true, error: {name: h(), code: h()}, view: null}}),
		// Diff: pending change, applied change, whole-file creation, failure.
		makeCard({name: 'edit', args: {file_path: h()}, callView: {card: 'diff', title: h(), diffs: [{path: h(), oldText: h(), newText: h()}], locations: [{path: h(), line: 1}]}}),
		makeCard({
			name: 'edit', callView: {card: 'diff', title: h(), diffs: [{path: h(), oldText: h(), newText: h()}]},
			result: {content: text(h()), view: {card: 'diff', title: h(), diffs: [{path: h(), oldText: `a\n${h()}\nb\n${h()}`, newText: `a\n${h()}\nb\n${h()}`}, {path: h(), oldText: null, newText: h()}]}},
		}),
		makeCard({name: 'write', callView: {card: 'diff', title: h(), diffs: [{path: h(), oldText: null, newText: h()}]}, result: {content: text(h()), isError: true, error: {name: h(), code: h()}, view: null}}),
		// Search: matches and paths.
		makeCard({
			name: 'grep', args: {pattern: h()}, callView: {card: 'generic', title: h(), kind: 'search', rawInput: h()},
			result: {content: text(h()), view: {card: 'search', shape: 'matches', title: h(), files: [
				{path: h(), matches: [{lineNumber: 1, line: h()}, {lineNumber: 20, line: h()}]},
				{path: h(), matches: [{lineNumber: 3, line: h()}]},
			], truncated: true, total: 9}},
		}),
		makeCard({
			name: 'glob', args: {pattern: h()}, callView: {card: 'generic', title: h(), kind: 'search'},
			result: {content: text(h()), view: {card: 'search', shape: 'paths', title: h(), paths: [h(), h(), `/abs/${h()}`], truncated: false, total: 3}},
		}),
		// Read.
		makeCard({
			name: 'read', args: {file_path: h()}, callView: {card: 'generic', title: h(), kind: 'read', locations: [{path: h(), line: 1}]},
			result: {content: text(h()), view: {card: 'read', title: h(), path: h(), offset: 1, lines: [{number: 1, text: h()}, {number: 2, text: h()}], totalLines: 40, lang: h(), content: text(h())}},
		}),
		// Web: search citations and a fetch summary, with hostile and with plausible URLs.
		makeCard({
			name: 'web_search', args: {query: h(), queries: [h()]}, callView: {card: 'generic', title: h(), kind: 'search', rawInput: h()},
			result: {content: text(h()), view: {card: 'web', kind: 'search', title: h(), answer: h(), truncated: true, sources: [
				{url: h(), title: h(), snippet: h(), publishedAt: h()},
				{url: `https://example.com/${h()}`, title: h()},
				{url: `file:///tmp/${h()}`},
			]}},
		}),
		makeCard({
			name: 'web_fetch', args: {url: h()}, callView: {card: 'generic', title: h(), kind: 'fetch', rawInput: h()},
			result: {content: text(h()), view: {card: 'web', kind: 'fetch', title: h(), url: `http://example.com/${h()}`, statusCode: 200, truncated: true}},
		}),
		makeCard({
			name: 'web_fetch', callView: {card: 'generic', title: h()},
			result: {content: text(h()), view: {card: 'web', kind: 'fetch', url: h(), statusCode: 404, truncated: false}},
		}),
	];
	// A Code Mode parent whose children are hostile cards too.
	const parent = makeCard({name: 'run_code', args: {code: h()}, callView: {card: 'generic', title: h(), rawInput: h()}, result: {content: text(h()), view: null}});
	cards.push({...parent, children: cards.slice(0, 3)});
	return cards;
}
