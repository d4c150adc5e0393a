/**
@module What the client writes to the agent: each message as one JSON line on the agent's stdin (as
the SDK's `ndJsonStream` writes it), and when it has left. `onLeft` hears each message once the
stdin took all of it (its write callback; also when the write failed, for a dead agent takes
nothing more), so the agent's requests in flight (`incoming-requests.ts`) count an answer as given
only when the agent could read it. A message the stdin does not take at once (past its high-water
mark) is awaited before the SDK hands over the next one: what the agent does not read waits in the
SDK's queue, whose length the reader bounds by reading no more requests.
*/
import type {Writable} from 'node:stream';
import type {AnyMessage} from '@agentclientprotocol/sdk';

export function writeFrames(stdin: Writable, onLeft: (message: AnyMessage) => void): WritableStream<AnyMessage> {
	return new WritableStream<AnyMessage>({
		write: async message => new Promise<void>(resolve => {
			// Node calls a write's callback later, never from inside `write`.
			const taken = stdin.write(`${JSON.stringify(message)}\n`, () => {
				onLeft(message);
				resolve();
			});
			if (taken) {
				resolve();
			}
		}),
	});
}
