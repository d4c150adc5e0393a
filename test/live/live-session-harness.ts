import type {OpenedSession} from '../../src/host/open-session.js';
import {LiveSession, sessionFeeds, type LiveSessionOptions} from '../../src/live/live-session.js';
import {nativeDriver, type NativeDriverOptions} from '../../src/live/native-driver.js';

/**
The live session over `session` as the interactive session builds it, with the native driver (no
agent, no saved history); `extra` options on top, `driver` options for the driver.
*/
export function liveSessionFor(session: OpenedSession, extra: Partial<LiveSessionOptions> = {}, driver: Partial<NativeDriverOptions> = {}): LiveSession {
	const cwd = session.header.cwd ?? process.cwd();
	return new LiveSession({
		cwd,
		...sessionFeeds(session),
		driver: nativeDriver({session, cwd, shutdown: async () => session.close(), ...driver}),
		...extra,
	});
}

/** Resolves once `condition` holds (polled every 10 ms; throws after ~10 s). */
export async function until(condition: () => boolean): Promise<void> {
	for (let tries = 0; !condition(); tries++) {
		if (tries > 1000) {
			throw new Error('condition never held');
		}

		// polling
		await new Promise(resolve => {
			setTimeout(resolve, 10);
		});
	}
}
