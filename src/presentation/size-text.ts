/** `12 B`, `3.4 KB`, `51.2 MB`: a size as cards and rows show it (decimal units, as file managers do). */
export function sizeText(bytes: number): string {
	if (bytes < 1000) {
		return `${bytes} B`;
	}

	const units = ['KB', 'MB', 'GB'];
	let value = bytes / 1000;
	let unit = 0;
	while (value >= 1000 && unit < units.length - 1) {
		value /= 1000;
		unit++;
	}

	return `${value.toFixed(1)} ${units[unit]!}`;
}
