/**
@module The Code Mode SDK section of the system prompt (contract.md §T6.6): how to write a
`run_code` program, then TypeScript declarations of every bindable tool. Deterministic: the same
tool set always gives the same bytes (prompt caches stay warm).
*/
import {jsonSchemaToTs, tsDocComment, tsKey} from './json-schema-to-ts.js';

/** What the SDK needs of one tool. */
export type SdkTool = {readonly name: string; readonly description: string; readonly parameters: unknown; readonly outputSchema: unknown};

/** A registry as the SDK reads it (`ToolRegistry` fits). */
export type SdkToolSource = {
	schemas(): ReadonlyArray<{readonly name: string; readonly description: string; readonly parameters: unknown}>;
	get(name: string): {readonly output: {readonly schema: unknown}} | undefined;
};

const instructions = [
	'## Calling tools from code',
	'',
	'`run_code` takes two required arguments: `code`, the body of an async JavaScript function (top-level `await` and `return` work),',
	'and `description`, a 5–10 word label shown to the user.',
	'Inside the program, call a tool as `await tools.name(args)`; use quoted access for names that are not identifiers, e.g. `await tools["my-tool"]({})`.',
	'A call resolves to the tool\'s value as declared below. A failed or refused call rejects with a `ToolCallError` whose `toolName` and `message` say what went wrong.',
	'Independent read-only calls may run together with `Promise.all`; calls that change things run alone, in the order you make them.',
	'Only what the program prints (`console.log`) and what it returns come back to you; images from tool results are attached after the run.',
].join('\n');

/** The tools `run_code` programs can call, read from a registry (everything visible except `run_code`). */
export function sdkToolsFrom(source: SdkToolSource): SdkTool[] {
	return source.schemas().flatMap(schema => {
		const definition = schema.name === 'run_code' ? undefined : source.get(schema.name);
		return definition === undefined ? [] : [{name: schema.name, description: schema.description, parameters: schema.parameters, outputSchema: definition.output.schema}];
	});
}

function interfaceBlock(name: string, members: string[]): string {
	return members.length === 0 ? `interface ${name} {}` : `interface ${name} {\n${members.join('\n')}\n}`;
}

/** The SDK section: instructions, then a fenced `ts` block of declarations. */
export function codeModeSdk(tools: readonly SdkTool[]): string {
	const sorted = [...tools].sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
	const argsMembers = sorted.flatMap(tool => {
		const doc = tsDocComment(tool.description);
		const member = `  ${tsKey(tool.name)}: ${jsonSchemaToTs(tool.parameters, '  ')};`;
		return doc === undefined ? [member] : [`  ${doc}`, member];
	});
	const outputMembers = sorted.map(tool => `  ${tsKey(tool.name)}: ${jsonSchemaToTs(tool.outputSchema, '  ')};`);
	const declarations = [
		'type JsonValue = null | boolean | number | string | JsonValue[] | {[key: string]: JsonValue};',
		interfaceBlock('ToolArgsMap', argsMembers),
		interfaceBlock('ToolOutputMap', outputMembers),
		'type ToolName = keyof ToolOutputMap;',
		'declare class ToolCallError extends Error {\n  readonly name: "ToolCallError";\n  readonly toolName: ToolName;\n}',
		'declare const tools: {\n  [K in ToolName]: (args: ToolArgsMap[K]) => Promise<ToolOutputMap[K]>;\n};',
	];
	return `${instructions}\n\n\`\`\`ts\n${declarations.join('\n\n')}\n\`\`\``;
}
