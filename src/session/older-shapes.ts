/**
@module The shapes older producers wrote a payload in, turned into the one its arm declares
(`events.ts`), so that every later reader sees one shape. Older producers (the harness's web app
and its earlier CLI) write `tool/result` flat: `{turn?, step?, callId, content, isError, meta?,
error?}` → `{turn?, step?, message: {role: 'user', source: {kind: 'tool', callId}, content:
[{type: 'tool-result', toolCallId, content, isError}]}, meta?, error?}`.

Anything else is returned as it is, without a copy.
*/
type Fields = Record<string, unknown>;

/**
`data` in the shape `type`'s arm declares: itself when it has it (or `type` has no older shape), a
new object when an older shape was lifted, `undefined` for a `tool/result` in neither shape.
*/
export function currentShape(type: string, data: Fields): Fields | undefined {
	switch (type) {
		case 'tool/result': {
			return data.message === undefined ? nestedResult(data) : data;
		}

		default: {
			return data;
		}
	}
}

/** The message-shaped `tool/result`, or `undefined` when `data` is not the flat shape either. */
function nestedResult(data: Fields): Fields | undefined {
	const {callId, content, isError, ...rest} = data;
	if (typeof callId !== 'string' || !Array.isArray(content) || (isError !== undefined && typeof isError !== 'boolean')) {
		return undefined;
	}

	const block = {type: 'tool-result', toolCallId: callId, content, isError: isError === true};
	return {...rest, message: {role: 'user', source: {kind: 'tool', callId}, content: [block]}};
}
