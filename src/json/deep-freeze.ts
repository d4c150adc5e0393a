/** Freeze `value` and every object reachable from it (iteratively, so depth is not a stack risk). */
export function deepFreeze<T>(value: T): T {
	const stack: unknown[] = [value];
	const seen = new Set<object>();
	while (stack.length > 0) {
		const current = stack.pop();
		if (typeof current !== 'object' || current === null || seen.has(current)) {
			continue;
		}

		seen.add(current);
		Object.freeze(current);
		for (const key of Reflect.ownKeys(current)) {
			const descriptor = Object.getOwnPropertyDescriptor(current, key);
			if (descriptor && 'value' in descriptor) {
				stack.push(descriptor.value);
			}
		}
	}

	return value;
}
