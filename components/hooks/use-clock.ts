import {useEffect, useState} from 'react';

/**
The current time, advanced every `intervalMs` while `isActive` (running cards tick their elapsed
seconds at most once a second). Inactive, it holds still and schedules nothing. With `phase`, the
ticks fall on whole intervals before or after that instant (a retry's countdown changes when its
seconds do, not up to a second late).
*/
export function useClock(isActive: boolean, now: () => number = Date.now, intervalMs = 1000, phase?: number): number {
	const [time, setTime] = useState(now);
	useEffect(() => {
		if (!isActive) {
			return;
		}

		setTime(now());
		let timer: ReturnType<typeof setInterval> | undefined;
		const tick = (): void => {
			setTime(now());
		};

		const offset = phase === undefined ? 0 : (((phase - now()) % intervalMs) + intervalMs) % intervalMs;
		const first = setTimeout(() => {
			tick();
			timer = setInterval(tick, intervalMs);
		}, offset === 0 ? intervalMs : offset);
		return () => {
			clearTimeout(first);
			clearInterval(timer);
		};
	}, [isActive, now, intervalMs, phase]);
	return time;
}
