// The pace a live run received its events at, replayed (bench/acp-session.mjs's floor (d)).
// A pace is `{firstSeq, at, tick}`: the event of seq `firstSeq + i` reached the session `at[i]` ms
// after the run's start, in turn `tick[i]` of the event loop.

/**
The drafts grouped as the live run received them: one group per turn of the live event loop, at the
offset (ms from the live run's start) its first event arrived. Events the live listener did not see
(the session's opening, before it; anything after its last) go with the nearest group.
*/
export function paceGroups({drafts, seqs}, pace) {
	const groups = [];
	let current;
	for (const [index, draft] of drafts.entries()) {
		const arrival = Math.min(Math.max(seqs[index] - pace.firstSeq, 0), pace.at.length - 1);
		const tick = pace.tick[arrival];
		if (current === undefined || tick !== current.tick) {
			current = {tick, at: pace.at[arrival], drafts: []};
			groups.push(current);
		}

		current.drafts.push(draft);
	}

	return groups;
}

/** Resolves at `at` ms after `origin` (performance.now()), letting the process idle meanwhile; always in a later turn of the loop. */
export function waitUntil(origin, at) {
	const delay = origin + at - performance.now();
	return new Promise(resolve => {
		if (delay >= 1) {
			setTimeout(resolve, delay);
		} else {
			setImmediate(resolve);
		}
	});
}

/**
Records a live run's pace (the shape `paceGroups` takes) for events from seq `firstSeq` on: call
`start()` when the run starts and `record()` as each event reaches the session. Costs a
`performance.now()`, two pushes and, once per turn of the event loop, a `setImmediate`.
*/
export function paceRecorder(firstSeq) {
	const pace = {firstSeq, at: [], tick: []};
	let origin = 0;
	let tick = 0;
	let tickOpen = false;
	const closeTick = () => {
		tick++;
		tickOpen = false;
	};

	return {
		pace,
		start() {
			origin = performance.now();
		},
		record() {
			pace.at.push(performance.now() - origin);
			pace.tick.push(tick);
			if (!tickOpen) {
				tickOpen = true;
				setImmediate(closeTick);
			}
		},
	};
}

/** Emits each group's drafts into `session`'s log at its offset from now (idling between groups); resolves with the number emitted. */
export async function emitAtPace(session, groups) {
	let events = 0;
	const origin = performance.now();
	for (const group of groups) {
		// the pace is the point
		await waitUntil(origin, group.at);
		for (const draft of group.drafts) {
			session.log.emit(draft);
			events++;
		}
	}

	return events;
}
