/** Add `value` to the set kept under `key`, creating the set on first use. */
export function addTo<K>(map: Map<K, Set<number>>, key: K, value: number): void {
	let set = map.get(key);
	if (set === undefined) {
		set = new Set();
		map.set(key, set);
	}

	set.add(value);
}
