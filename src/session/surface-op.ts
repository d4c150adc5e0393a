/**
@module Whether a message event rewrites the model's context (`surfaceOp` `{op: 'replace', start,
end}`, presentation-events.md §3.1): a compaction's replacement is not something that happened
again, so no view shows it.
*/
import type {SessionEvent} from './events.js';

/** Whether `event` is a message that rewrites the model's context instead of saying something new: no view shows it. */
export function isContextRewrite(event: SessionEvent): boolean {
	switch (event.type) {
		case 'user/message':
		case 'steering/message':
		case 'assistant/message':
		case 'tool/result': {
			return typeof event.surfaceOp === 'object';
		}

		default: {
			return false;
		}
	}
}
