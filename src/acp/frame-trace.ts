/**
@module The ACP frame trace (`CARDTERM_ACP_TRACE=FILE`): every line the agent writes and every
message the client sends, one JSON line each (`{"dir":"in"|"out","ms":…,"line":"<the frame>"}`),
in the order cardterm saw them. It is how the real agents' frames in docs/acp-mapping.md were
recorded; the line is kept raw so a malformed frame is traced as it came.
*/
import {createWriteStream} from 'node:fs';

export type FrameDirection = 'in' | 'out';

/** Where traced frames go. */
export type FrameTrace = {
	frame(direction: FrameDirection, line: string): void;
	close(): Promise<void>;
};

/** A trace appending to `path` (created when missing). */
export function openFrameTrace(path: string): FrameTrace {
	const stream = createWriteStream(path, {flags: 'a'});
	const start = performance.now();
	// A trace that cannot be written must not end the session: the error is dropped.
	stream.on('error', () => {});
	return {
		frame(direction, line) {
			stream.write(`${JSON.stringify({dir: direction, ms: Math.round(performance.now() - start), line})}\n`);
		},
		async close() {
			await new Promise<void>(resolve => {
				stream.end(resolve);
			});
		},
	};
}
