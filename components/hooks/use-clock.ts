import {useEffect, useState} from 'react';

/**
The current time, advanced every `intervalMs` while `isActive` (running cards tick their elapsed
seconds at most once a second). Inactive, it holds still and schedules nothing.
*/
export function useClock(isActive: boolean, now: () => number = Date.now, intervalMs = 1000): number {
	const [time, setTime] = useState(now);
	useEffect(() => {
		if (!isActive) {
			return;
		}

		setTime(now());
		const timer = setInterval(() => {
			setTime(now());
		}, intervalMs);
		return () => {
			clearInterval(timer);
		};
	}, [isActive, now, intervalMs]);
	return time;
}
