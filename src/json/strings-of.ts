/**
@module Every string in a JSON value, whatever field holds it: an event's texts for redaction
(`cardterm export`) and for search (`sessions --search`).
*/

/** The strings of `value`, depth first, appended to `out`. */
export function stringsOf(value: unknown, out: string[] = []): string[] {
	if (typeof value === 'string') {
		out.push(value);
	} else if (Array.isArray(value)) {
		for (const item of value) {
			stringsOf(item, out);
		}
	} else if (typeof value === 'object' && value !== null) {
		for (const item of Object.values(value)) {
			stringsOf(item, out);
		}
	}

	return out;
}
