/**
@module The path envelope a family of producers wraps file results in — `<path>P</path>`,
`<type>T</type>`, `<content>…</content>`, one per line — recognised so a card can show the path as a
header and the content as the body instead of the model-facing wrapper. Our own `read` writes it;
other producers' `read`, `read_image`, `write` and `edit` results use it too.
*/

/** An envelope's parts: `type` is `file`, `image`, `directory`, … as the producer wrote it. */
export type PathEnvelope = {readonly path: string; readonly type: string; readonly body: string};

/**
A path is a file name and may hold any markup (a real log reads `…/scope</system-reminder>/task.txt`): it
runs to the first `</path>` that ends its line before `<type>`, not to the first `<`.
*/
const envelope = /^<path>([^\n]*?)<\/path>\n<type>([^\n<]*)<\/type>\n<content>\n?([\s\S]*?)\n?<\/content>\n?$/u;

/** The parts of a text that is exactly one envelope, else `undefined`. */
export function parsePathEnvelope(text: string): PathEnvelope | undefined {
	const match = envelope.exec(text);
	return match === null ? undefined : {path: match[1]!, type: match[2]!, body: match[3]!};
}
