// The side-by-side table: one row per figure and size, one column per peer, cardterm's column, and
// cardterm's ratio to the best peer in the same run (lower is better for every figure except history).

const fixed = (value, digits) => (typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : undefined);

const figures = [
	{name: 'wall time per call (ms)', value: r => r.wallPerCallMs, digits: 1},
	{name: 'overhead per call, server time subtracted (ms)', value: r => r.overheadPerCallMs, digits: 1},
	{name: 'request: fixed part, system prompt + tool schemas (est. tokens)', value: r => r.fixedTokens, digits: 0},
	{name: 'input sent over the session (est. tokens)', value: r => r.inputTokens, digits: 0},
	{name: 'of it uncached (cache reads subtracted where the wire declares them)', value: r => r.uncachedTokens, digits: 0},
	{name: 'of it cache reads (Anthropic cache_control)', value: r => r.cachedTokens, digits: 0, noRatio: true},
	{name: 'last request (est. tokens)', value: r => r.lastRequestTokens, digits: 0},
	{name: 'bytes written in the session', value: r => r.sessionBytes, digits: 0},
	{name: 'synchronized-output frames in the session (0: the program marks none)', value: r => r.sessionFrames, digits: 0, noRatio: true},
	{name: 'clear-screens (launch + session + quit + resume)', value: r => (r.clearScreens === undefined ? undefined : Object.values(r.clearScreens).reduce((sum, count) => sum + count, 0)), digits: 0},
	{name: 'peak PSS of the process tree (MB)', value: r => r.peakPssMb, digits: 0},
	{name: 'keystroke echo after the session (ms, median of 10)', value: r => r.echoMs, digits: 1, floor: r => r.echoFloorMs},
	{name: 'launch → prompt (ms)', value: r => r.launchMs, digits: 0, beforeSession: true},
	{name: 'resume: time to the last answer (ms)', value: r => r.resumeMs, digits: 0, among: (r, calls) => r.resumeHistoryShown === calls},
	{name: 'resume: bytes written', value: r => r.resumeBytes, digits: 0},
	{name: 'resume: calls of the history shown', value: r => r.resumeHistoryShown, digits: 0, higherIsBetter: true},
];

/** Whether `result` finished its session; a figure taken after a session that stopped early is not of this size. */
const complete = result => typeof result?.sessionMs === 'number';

/** `result`'s value of `figure`, when it is comparable: taken before the session, or after a complete one. */
const comparable = (figure, result) => (result !== undefined && (figure.beforeSession || complete(result)) ? figure.value(result) : undefined);

/** The best peer value of `figure` at one size (peers only, not cardterm), and whose it is. */
export function bestPeer(figure, rowsByPeer, calls) {
	let best;
	for (const [peer, result] of rowsByPeer) {
		const value = comparable(figure, result);
		if (typeof value !== 'number' || !Number.isFinite(value) || (figure.among !== undefined && !figure.among(result, calls))) {
			continue;
		}

		if (best === undefined || (figure.higherIsBetter ? value > best.value : value < best.value)) {
			best = {peer, value};
		}
	}

	return best;
}

/**
Markdown rows for `results` ({peer, calls, ...figures}); `peers` are the peer names in column order,
`unavailable` maps a name (peer or cardterm) to the reason it has no figures.
*/
export function resultsTable({results, peers, sizes, unavailable}) {
	const columns = [...peers, 'cardterm'];
	const header = ['figure', 'calls', ...columns, 'cardterm ÷ best peer'];
	const lines = [`| ${header.join(' | ')} |`, `|${header.map((_, index) => (index < 2 ? '---' : '---:')).join('|')}|`];
	for (const figure of figures) {
		for (const calls of sizes) {
			const byPeer = new Map(peers.map(peer => [peer, results.find(result => result.peer === peer && result.calls === calls)]));
			const ours = results.find(result => result.peer === 'cardterm' && result.calls === calls);
			const cells = columns.map(name => {
				if (unavailable.has(name)) {
					return name === 'cardterm' ? 'n/a' : 'skipped';
				}

				const result = name === 'cardterm' ? ours : byPeer.get(name);
				if (result !== undefined && !figure.beforeSession && !complete(result)) {
					return result.callsServed === undefined ? 'failed' : `stopped at ${result.callsServed}`;
				}

				const value = result === undefined ? undefined : fixed(figure.value(result), figure.digits);
				if (value === undefined) {
					return '–';
				}

				const floor = figure.floor?.(result);
				return floor === undefined || floor === null ? value : `${value} (floor ${fixed(floor, 1)})`;
			});
			const best = bestPeer(figure, byPeer, calls);
			const mine = comparable(figure, ours);
			let ratio = 'n/a';
			if (figure.noRatio) {
				// A share, not a cost: no better or worse.
			} else if (figure.among !== undefined && typeof mine === 'number' && !figure.among(ours, calls)) {
				// The target compares resumes that show all of the session; one that shows less is not one of them.
				ratio = `n/a (shows ${ours.resumeHistoryShown ?? 0} of ${calls})`;
			} else if (best !== undefined && typeof mine === 'number' && Number.isFinite(mine)) {
				ratio = best.value === 0 ? (mine === 0 ? '1.00 (both 0)' : `∞ (best ${best.peer}: 0)`) : `${(mine / best.value).toFixed(2)} (best ${best.peer})`;
			}

			lines.push(`| ${figure.name} | ${calls} | ${cells.join(' | ')} | ${ratio} |`);
		}
	}

	return lines;
}
