/**
@module `defineTool`: the typed way to write a tool (contract.md §T2). Schemas are compiled
once, at definition time; `execute` is strict about arguments, presenters and the concurrency
classifier are lenient (they also run on replayed logs, whose arguments may not validate).
*/
import type {JsonValue} from '../json/json-value.js';
import {parameterSchemaSpecToJsonSchema, valueSchemaSpecToJsonSchema} from '../schema/compile-spec.js';
import type {InferArgs, InferValue} from '../schema/infer.js';
import type {JsonSchemaNode} from '../schema/json-schema-node.js';
import {validateJsonSchemaValue} from '../schema/validate-value.js';
import type {ParameterSchemaSpec, ValueSchemaSpec} from '../schema/value-schema-spec.js';
import type {ContentBlock} from './content.js';
import {ToolArgsError} from './errors.js';
import {RecentVerdicts} from './recent-verdicts.js';
import type {ToolDefinition, ToolExecution, ToolExecutionResult, ToolOutputDeclaration, ToolRunContext} from './types.js';
import type {ToolCallView, ToolResult, ToolResultView} from './views.js';

/** What `defineTool` takes. `S` types the arguments, `O` (only `output.schema`) the canonical value. */
export type DefineToolOptions<S extends ParameterSchemaSpec, O extends ValueSchemaSpec> = {
	/** Not validated here; the registry reserves `run_code`. */
	readonly name: string;
	/** Model-visible. */
	readonly description: string;
	/** The argument object, as a property map (an open object root). */
	readonly parameters: S;
	readonly output: {
		/** The canonical value's schema; the body's return type follows it. */
		readonly schema: O;
		/** Pure: the model-facing content for a valid value. */
		readonly render: (args: InferArgs<S>, value: NoInfer<InferValue<O>>) => ContentBlock[];
		/** Pure: UI-only metadata persisted beside the result. */
		readonly presentationMeta?: (args: InferArgs<S>, value: NoInfer<InferValue<O>>) => JsonValue;
	};
	/** Positive and finite; metadata only, never enforced by the registry. */
	readonly timeoutMs?: number;
	/** Pure: whether this call may run beside others. Invalid arguments count as `false`. */
	readonly isConcurrencySafe?: (args: InferArgs<S>) => boolean;
	/** The body: runs only with valid arguments and returns the canonical value. */
	readonly execute: (args: InferArgs<S>, exec: ToolRunContext) => Promise<NoInfer<InferValue<O>>>;
	/** May replace the final content of every outcome; arguments untyped because invalid input reaches it too. */
	readonly finalizeContent?: (exec: Readonly<ToolExecution>, result: Readonly<ToolExecutionResult>) => ContentBlock[] | undefined;
	/** Pure: the pending card. Not called for invalid arguments (the generic card is used). */
	readonly presentCall?: (args: InferArgs<S>) => ToolCallView | undefined;
	/** Pure: the completed card. Not called for invalid arguments. */
	readonly presentResult?: (args: InferArgs<S>, result: ToolResult) => ToolResultView | undefined;
};

/** A `defineTool` result: a registry `ToolDefinition` whose body resolves to the typed canonical value. */
export type DefinedTool<O extends ValueSchemaSpec> = Omit<ToolDefinition, 'parameters' | 'output' | 'execute'> & {
	readonly parameters: JsonSchemaNode;
	readonly output: ToolOutputDeclaration;
	execute(args: unknown, exec: ToolRunContext): Promise<InferValue<O>>;
};

/**
Define a tool from DSL schemas. Checks, in order: `timeoutMs` (positive finite, else an `Error`),
`parameters`, `output.schema` (each a `JsonSchemaError`). Every callback is read once, here; later
changes to `options` have no effect. Optional callbacks appear on the definition only when supplied.
*/
export function defineTool<const S extends ParameterSchemaSpec, const O extends ValueSchemaSpec>(options: DefineToolOptions<S, O>): DefinedTool<O> {
	const {name, description, parameters: parameterSpec, output, timeoutMs, isConcurrencySafe, execute, finalizeContent, presentCall, presentResult} = options;
	if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0)) {
		throw new Error(`defineTool(${name}): timeoutMs must be a positive finite number`);
	}

	const parameters = parameterSchemaSpecToJsonSchema(parameterSpec);
	const {schema: outputSpec, render, presentationMeta} = output;
	const outputSchema = valueSchemaSpecToJsonSchema(outputSpec);

	type Args = InferArgs<S>;
	type Value = InferValue<O>;
	// The empty label makes the root print as `arguments`, as `validateArgs` does.
	const violationsOf = (args: unknown): string[] => validateJsonSchemaValue(parameters, args, '');
	// A card's presenters check the same parsed arguments at its call and at its result (a few events
	// apart, calls in parallel between them): the newest verdicts are remembered (presenters are pure).
	const recent = new RecentVerdicts(16);
	const validates = (args: unknown): boolean => violationsOf(args).length === 0;
	const isValid = (args: unknown): args is Args => typeof args === 'object' && args !== null ? recent.verdict(args, validates) : validates(args);

	const outputDeclaration: ToolOutputDeclaration = {
		schema: outputSchema,
		// The registry calls render only after a successful body, so the arguments passed validation.
		render: (args, value) => render(args as Args, value as Value),
		...(presentationMeta === undefined ? {} : {presentationMeta: (args: unknown, value: JsonValue) => presentationMeta(args as Args, value as Value)}),
	};

	const definition: DefinedTool<O> = {
		name,
		description,
		parameters,
		output: Object.freeze(outputDeclaration),
		...(timeoutMs === undefined ? {} : {timeoutMs}),
		async execute(args: unknown, exec: ToolRunContext): Promise<Value> {
			const violations = violationsOf(args);
			if (violations.length > 0) {
				throw new ToolArgsError(violations);
			}

			return execute(args as Args, exec);
		},
		...(finalizeContent === undefined ? {} : {finalizeContent: (exec: Readonly<ToolExecution>, result: Readonly<ToolExecutionResult>) => finalizeContent(exec, result)}),
		...(isConcurrencySafe === undefined ? {} : {isConcurrencySafe: (args: unknown) => isValid(args) && isConcurrencySafe(args)}),
		...(presentCall === undefined ? {} : {presentCall: (args: unknown) => (isValid(args) ? presentCall(args) : undefined)}),
		...(presentResult === undefined
			? {}
			: {presentResult: (args: unknown, result: ToolResult) => (isValid(args) ? presentResult(args, result) : undefined)}),
	};
	return Object.freeze(definition);
}
