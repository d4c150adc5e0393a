/**
@module The flat `tool/result` payload of older producers, `{turn?, step?, callId, content, isError,
meta?, error?}`, in the contract's shape: `{turn?, step?, message: {role: 'user', source: {kind:
'tool', callId}, content: [{type: 'tool-result', toolCallId, content, isError}]}, meta?, error?}`.
*/
type Fields = Record<string, unknown>;

/** The message-shaped payload, or `undefined` when `data` is not the flat shape either. */
export function messageShapedResult(data: Fields): Fields | undefined {
	const {callId, content, isError, ...rest} = data;
	if (typeof callId !== 'string' || !Array.isArray(content) || (isError !== undefined && typeof isError !== 'boolean')) {
		return undefined;
	}

	const block = {type: 'tool-result', toolCallId: callId, content, isError: isError === true};
	return {...rest, message: {role: 'user', source: {kind: 'tool', callId}, content: [block]}};
}
