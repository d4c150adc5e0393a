/**
Whether `value` is a plain record: an object whose prototype is `Object.prototype` of some realm,
or `null`. Arrays, class instances, Dates, Maps and boxed primitives are not.

A prototype from another realm is recognised by being a root prototype (its own prototype is
`null`) whose `constructor` is named `Object`; reading `constructor` is guarded because a hostile
prototype may throw.
*/
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return false;
	}

	const prototype: unknown = Object.getPrototypeOf(value);
	if (prototype === null || prototype === Object.prototype) {
		return true;
	}

	if (Object.getPrototypeOf(prototype) !== null) {
		return false;
	}

	try {
		const descriptor = Object.getOwnPropertyDescriptor(prototype, 'constructor');
		const ctor: unknown = descriptor?.value;
		return typeof ctor === 'function' && ctor.name === 'Object' && Object.prototype.toString.call(value) === '[object Object]';
	} catch {
		return false;
	}
}

/**
Whether `value` is an intrinsic array of some realm: `Array.isArray` and a prototype that is an
`Array.prototype` (not a subclass).
*/
export function isIntrinsicArray(value: unknown): value is unknown[] {
	if (!Array.isArray(value)) {
		return false;
	}

	const prototype: unknown = Object.getPrototypeOf(value);
	if (prototype === Array.prototype) {
		return true;
	}

	try {
		const ctor: unknown = prototype === null ? undefined : Object.getOwnPropertyDescriptor(prototype, 'constructor')?.value;
		return typeof ctor === 'function' && ctor.name === 'Array' && Array.isArray(prototype);
	} catch {
		return false;
	}
}

/**
`isPlainRecord` for JSON data — a value `JSON.parse` returned or a part of one, or data built as JSON
(an event's payload, a tool's arguments, an ACP message): its objects all have `Object.prototype` (a
`"__proto__"` key is an own property there), so a non-null object that is not an array is one,
found without reading the prototype (a log reader asks several times an event).
*/
export function isJsonObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
