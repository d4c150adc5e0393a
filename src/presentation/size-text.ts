/**
@module A size in bytes as a person reads it, the one rule for every view: an MCP result's image or
resource (its card), an `@` reference's row.
*/

/** `12 B`, `3.4 KB`, `51.2 MB`. */
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
