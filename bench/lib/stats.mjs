// Sample statistics and the figure format every scenario prints.

/** Median and p95 (nearest rank) of `samples`; the input is not modified. */
export function summarize(samples) {
	if (samples.length === 0) {
		return {median: Number.NaN, p95: Number.NaN, count: 0};
	}

	const sorted = [...samples].sort((left, right) => left - right);
	const rank = (q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
	const middle = sorted.length / 2;
	const median = sorted.length % 2 === 1 ? sorted[Math.floor(middle)] : (sorted[middle - 1] + sorted[middle]) / 2;
	return {median, p95: rank(0.95), count: sorted.length};
}

export const round = (value, digits = 3) => (Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : null);

/**
One figure: `{name, median, p95, unit, floor, ratio, target, met}`. `floor` is the median of the floor
measured in the same run (null when the figure has none); `ratio` = median / floor.
*/
export function figure(name, samples, {unit = 'ms', floor, target, met}) {
	const {median, p95, count} = Array.isArray(samples) ? summarize(samples) : samples;
	const floorMedian = floor === undefined || floor === null ? null : (Array.isArray(floor) ? summarize(floor).median : floor);
	const ratio = floorMedian === null || floorMedian === 0 ? null : median / floorMedian;
	const value = {name, median: round(median), p95: round(p95), unit, floor: round(floorMedian), ratio: round(ratio, 2), target, runs: count};
	// No samples is no verdict: a judge over null (`null <= 10`) would call it met.
	const verdict = typeof met === 'function' ? (count > 0 ? met(value) : false) : met;
	return {...value, met: verdict};
}
