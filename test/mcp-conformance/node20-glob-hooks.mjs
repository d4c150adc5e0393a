// Module hook registered by node20-glob-preload.mjs: points the conformance suite's "fs" import at
// node20-fs.mjs. Every other importer, and every other specifier, resolves as usual.
const suitePackage = '/node_modules/@modelcontextprotocol/conformance/';
const shim = new URL('./node20-fs.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
	const fromSuite = context.parentURL?.includes(suitePackage) ?? false;
	if (fromSuite && (specifier === 'fs' || specifier === 'node:fs')) {
	  return { url: shim, shortCircuit: true };
	}
	return nextResolve(specifier, context);
}
