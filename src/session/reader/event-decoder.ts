/**
@module Turns event lines (line 2 onwards) into events: envelope and payload checks, packed chunk
expansion, seq contiguity, and the unknown-type rule. Stateful (it tracks the next expected seq), and
shared by the one-shot reader and follow mode so both report exactly the same diagnostics.

Decisions (contract.md §E3.1, §E3.7, and issue 3):
- A malformed line is reported and skipped. Since its seq is unknown, the next good line may jump
  ahead without a second, "seq gap", report: the malformed line explains the gap.
- A seq gap is reported once and reading continues from the new seq; a repeated or regressing seq is
  reported and the line skipped.
- A type outside the known vocabulary (`event-vocabulary.ts`) and without `ignorable: true` is
  reported once per type and its events are skipped; with `ignorable: true` it passes through
  silently (the fold ignores it).
- Older producers wrote a message's payload in another shape (`older-shapes.ts`): the reader turns it
  into the one the event's arm declares, then checks it (`event-shape.ts`) — once: every later reader
  trusts the event's type. A `tool/result` in neither shape is reported as an unsupported result
  format and skipped: a format the reader does not know, not damage.
- The envelope's `surfaceOp`, `sourceEventSeqs` and `ignorable` are checked like `seq` and `time`.
*/
import {isJsonObject} from '../../json/is-plain-record.js';
import {checkEnvelope, checkEventData} from '../events/event-shape.js';
import {isKnownEventType, PACKED_CHUNK_TYPES} from '../events/event-vocabulary.js';
import type {SessionEvent} from '../events/events.js';
import {parseLogJson} from './log-json.js';
import {quoteLogValue, type LogDiagnostic, type LogDiagnosticKind} from './log-errors.js';
import {currentShape} from '../events/older-shapes.js';
import {checkPackedRow, expandPackedRow, type PackedRow} from './packed-chunks.js';

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
		return parsed.ok ? this.decodeValue(parsed.value, line) : this.malformed(line, parsed.problem);
	}

	/** Decodes a line's JSON value (parsed, or a translated line's: `SplitLine.value`). */
	decodeValue(value: unknown, line: number): SessionEvent[] {
		if (!isJsonObject(value)) {
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

		if (!isJsonObject(value.data)) {
			return this.malformed(line, 'missing or invalid "data" (must be an object)');
		}

		const envelope = checkEnvelope(value);
		if (envelope !== undefined) {
			return this.malformed(line, envelope);
		}

		const shaped = currentShape(type, value.data);
		if (shaped === undefined) {
			this.afterMalformed = true;
			this.diagnose(line, 'unsupported', 'tool/result in an unsupported result format (neither data.message nor a flat data.callId with content and isError): skipped');
			return [];
		}

		const data = checkEventData(type, shaped);
		if (typeof data === 'string') {
			return this.malformed(line, `invalid ${quoteLogValue(type)} data: ${data}`);
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

		// Checked above: the line is the event its type's arm declares (a type without one is an `OtherEvent`).
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
