/**
@module The shapes older producers wrote a payload in, turned into the one its arm declares
(`events.ts`), so that every later reader sees one shape. DeepSeek Harness before 2026-07-28
wrote a message's fields directly in `data` where the contract now nests them in `data.message`:

- `tool/result` `{turn?, step?, callId, content, isError, meta?, error?}` → `{turn?, step?, message:
  {role: 'user', source: {kind: 'tool', callId}, content: [{type: 'tool-result', toolCallId, content,
  isError}]}, meta?, error?}`;
- `assistant/message` `{turn, step, content, provenance?, usage?}` → `{turn, step, message: {role:
  'assistant', content, source?}, usage?}` (`provenance` was the message's source: provider, model);
- `steering/message` went the other way (`{turn, content, source}`, later `{turn, message}`), and a
  `user/message` may come either way: both are read flat, as the contract's `user/message` is.

Anything else is returned as it is, without a copy.
*/
import {isJsonObject} from '../../json/is-plain-record.js';

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

		case 'assistant/message': {
			return data.message === undefined && data.content !== undefined ? nestedAssistantMessage(data) : data;
		}

		case 'user/message':
		case 'steering/message': {
			return data.content === undefined && isJsonObject(data.message) ? liftedMessage(data, data.message) : data;
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

function nestedAssistantMessage(data: Fields): Fields {
	const {id, role, content, source, provenance, ...rest} = data;
	const from = source ?? (isJsonObject(provenance) ? {kind: 'model', ...provenance} : undefined);
	return {...rest, message: {...(id === undefined ? {} : {id}), role: role ?? 'assistant', content, ...(from === undefined ? {} : {source: from})}};
}

/** A user or steering message nested in `data.message`, lifted into `data` (the envelope's own fields, `turn`, stay). */
function liftedMessage(data: Fields, message: Fields): Fields {
	const {message: _nested, ...rest} = data;
	return {...rest, ...message};
}
