/**
Marks a branch that the type system proves unreachable. A new variant of a closed union fails to
compile at every switch that ends here; at runtime (a value from a wire or an old log that slipped
past validation) it throws a message naming the variant.
*/
export function assertNever(value: never, context = 'switch'): never {
	let shown: string;
	try {
		shown = JSON.stringify(value) ?? String(value);
	} catch {
		shown = String(value);
	}

	throw new Error(`unreachable variant in ${context}: ${shown}`);
}
