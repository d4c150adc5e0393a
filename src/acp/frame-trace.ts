/**
@module The ACP frame trace (`CARDTERM_ACP_TRACE=FILE`): every line the agent writes and every
message the client sends, one JSON line each (`{"dir":"in"|"out","ms":…,"line":"<the frame>"}`),
in the order cardterm saw them. It is how the real agents' frames in docs/acp-mapping.md were
recorded; the line is kept raw so a malformed frame is traced as it came, less the session's
secret values (`redact`). The file is the person's alone (0600), as the session log is.
*/
import {createWriteStream} from 'node:fs';
import {PRIVATE_FILE_MODE} from '../session/store/private-mode.js';

type FrameDirection = 'in' | 'out';

/** Where traced frames go. */
export type FrameTrace = {
	frame(direction: FrameDirection, line: string): void;
	close(): Promise<void>;
};

/** A trace appending to `path` (created 0600 when missing), each line through `redact`. */
export function openFrameTrace(path: string, redact: (line: string) => string = line => line): FrameTrace {
	const stream = createWriteStream(path, {flags: 'a', mode: PRIVATE_FILE_MODE});
	const start = performance.now();
	// A trace that cannot be written must not end the session: the error is dropped.
	stream.on('error', () => {});
	return {
		frame(direction, line) {
			stream.write(`${JSON.stringify({dir: direction, ms: Math.round(performance.now() - start), line: redact(line)})}\n`);
		},
		async close() {
			await new Promise<void>(resolve => {
				stream.end(resolve);
			});
		},
	};
}
