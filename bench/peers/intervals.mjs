// The server's share of a session: requests may overlap (a title request beside a step), so the time
// the server was busy is the length of the union of their [arrival, end] intervals.

/** Total length of the union of `intervals` ([start, end] pairs), clipped to [from, to]. */
export function unionLength(intervals, from = -Infinity, to = Infinity) {
	const clipped = intervals
		.map(([start, end]) => [Math.max(start, from), Math.min(end, to)])
		.filter(([start, end]) => end > start)
		.sort((left, right) => left[0] - right[0]);
	let total = 0;
	let openStart = Number.NaN;
	let openEnd = Number.NaN;
	for (const [start, end] of clipped) {
		if (Number.isNaN(openStart) || start > openEnd) {
			if (!Number.isNaN(openStart)) {
				total += openEnd - openStart;
			}

			openStart = start;
			openEnd = end;
		} else if (end > openEnd) {
			openEnd = end;
		}
	}

	return Number.isNaN(openStart) ? total : total + openEnd - openStart;
}
