/**
@module Turns event lines (line 2 onwards) into events: envelope and payload checks, packed chunk
expansion, seq contiguity, and the unknown-type rule. Stateful (it tracks the next expected seq), and
shared by the one-shot reader and follow mode so both report exactly the same diagnostics.

Decisions (presentation-events.md §3.1, §3.7, and issue 3):
- A malformed line is reported and skipped. Since its seq is unknown, the next good line may jump
  ahead without a second, "seq gap", report: the malformed line explains the gap.
- A seq gap is reported once and reading continues from the new seq; a repeated or regressing seq is
  reported and the line skipped.
- A type outside the known vocabulary (`event-vocabulary.ts`) and without `ignorable: true` is
  reported once per type and its events are skipped; with `ignorable: true` it passes through
  silently (the fold ignores it).
- Old logs write `tool/code-dispatch*` without `rootCallId`; the reader fills it with
  `parentCallId` (the only nesting level those producers had) so the event has its declared shape.
- Older producers (the harness's web app and its earlier CLI) write `tool/result` flat:
  `data: {turn, step, callId, content, isError, meta?, error?}`. The reader turns it into the
  contract's `data.message` shape (`flat-result.ts`); a `tool/result` in neither shape is reported
  as an unsupported result format and skipped — a format the reader does not know, not damage.
*/
import {isParsedJsonObject} from '../json/is-plain-record.js';
import {checkEventData} from './event-shape.js';
import {isKnownEventType, PACKED_CHUNK_TYPES} from './event-vocabulary.js';
import type {SessionEvent} from './events.js';
import {parseLogJson} from './log-json.js';
import {quoteLogValue, type LogDiagnostic, type LogDiagnosticKind} from './log-errors.js';
import {checkPackedRow, expandPackedRow, type PackedRow} from './packed-chunks.js';
import {messageShapedResult} from './flat-result.js';

/** Receives each diagnostic as it is found. */
export type DiagnosticSink = (diagnostic: LogDiagnostic) => void;

/** Stateful decoder of one log's event lines. */
export class LogEventDecoder {
	private readonly file: string;
	private readonly report: DiagnosticSink;
	private expectedSeq = 0;
	private afterMalformed = false;
	private readonly reportedTypes = new Set<string>();

	constructor(file: string, report: DiagnosticSink) {
		this.file = file;
		this.report = report;
	}

	/** The seq the next event should carry. */
	get nextSeq(): number {
		return this.expectedSeq;
	}

	/** Decodes line `line` of the file; returns the events it holds (none when skipped). */
	decode(text: string, line: number): SessionEvent[] {
		const parsed = parseLogJson(text);
		if (!parsed.ok) {
			return this.malformed(line, parsed.problem);
		}

		const value = parsed.value;

		if (!isParsedJsonObject(value)) {
			return this.malformed(line, 'not a JSON object');
		}

		const type = value.type;
		if (typeof type !== 'string' || type.length === 0) {
			return this.malformed(line, 'missing or invalid "type"');
		}

		if (type === 'session') {
			return this.malformed(line, 'a second session header (only line 1 may be one)');
		}

		if (PACKED_CHUNK_TYPES.has(type)) {
			const row = checkPackedRow(type as PackedRow['type'], value);
			if (typeof row === 'string') {
				return this.malformed(line, row);
			}

			return this.acceptSeqs(line, row.seq0, row.parts.length) ? expandPackedRow(row) : [];
		}

		if (!Number.isSafeInteger(value.seq) || (value.seq as number) < 0) {
			return this.malformed(line, 'missing or invalid "seq"');
		}

		if (typeof value.time !== 'number' || !Number.isFinite(value.time)) {
			return this.malformed(line, 'missing or invalid "time"');
		}

		if (!isParsedJsonObject(value.data)) {
			return this.malformed(line, 'missing or invalid "data" (must be an object)');
		}

		let data = value.data;
		if (type === 'tool/result' && data.message === undefined) {
			const normalised = messageShapedResult(data);
			if (normalised === undefined) {
				this.afterMalformed = true;
				this.diagnose(line, 'unsupported', 'tool/result in an unsupported result format (neither data.message nor a flat data.callId with content and isError): skipped');
				return [];
			}

			data = normalised;
		}

		const problem = checkEventData(type, data);
		if (problem !== undefined) {
			return this.malformed(line, `invalid ${quoteLogValue(type)} data: ${problem}`);
		}

		if (!this.acceptSeqs(line, value.seq as number, 1)) {
			return [];
		}

		if (!isKnownEventType(type) && value.ignorable !== true) {
			if (!this.reportedTypes.has(type)) {
				this.reportedTypes.add(type);
				this.diagnose(line, 'unknown-type', `unknown event type ${quoteLogValue(type)} without "ignorable": skipped (later ${quoteLogValue(type)} events are skipped without a report)`);
			}

			return [];
		}

		if ((type === 'tool/code-dispatch-start' || type === 'tool/code-dispatch') && data.rootCallId === undefined) {
			return [{...value, data: {...data, rootCallId: data.parentCallId}} as SessionEvent];
		}

		return [(data === value.data ? value : {...value, data}) as SessionEvent];
	}

	/** Reports a line that was too long to hold; like a malformed line, it may explain a seq jump. */
	overlong(line: number, limit: number): void {
		this.lost(line, 'overlong', `line longer than the ${limit}-byte limit: skipped to its end`);
	}

	/** Reports lines lost at `line` (too long, a dropped zstd frame); like a malformed line, it explains a seq jump. */
	lost(line: number, kind: LogDiagnosticKind, reason: string): void {
		this.afterMalformed = true;
		this.diagnose(line, kind, reason);
	}

	/** Checks `count` seqs starting at `first` against the expected one; false = skip the line. */
	private acceptSeqs(line: number, first: number, count: number): boolean {
		if (first < this.expectedSeq) {
			this.diagnose(line, 'seq-repeat', `seq ${first} repeats or goes back (expected ${this.expectedSeq}): line skipped`);
			return false;
		}

		if (first > this.expectedSeq && !this.afterMalformed) {
			this.diagnose(line, 'seq-gap', `seq gap: expected ${this.expectedSeq}, got ${first} (${first - this.expectedSeq} missing); reading goes on from ${first}`);
		}

		this.afterMalformed = false;
		this.expectedSeq = first + count;
		return true;
	}

	private malformed(line: number, reason: string): [] {
		this.afterMalformed = true;
		this.diagnose(line, 'malformed', reason);
		return [];
	}

	private diagnose(line: number, kind: LogDiagnosticKind, reason: string): void {
		this.report({file: this.file, line, kind, reason});
	}
}
