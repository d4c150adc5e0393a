/**
@module Static types of DSL schemas (contract.md §T1.1–§T1.3).
*/
import type {JsonValue} from '../json/json-value.js';

/** Containers (array, object, oneOf) deeper than this infer as `JsonValue`, so the checker never overflows. */
type InferenceBound = 16;

/** A depth counter: one element per enclosing container. */
type Depth = readonly unknown[];

type Deeper<D extends Depth> = [...D, unknown];

/** `const` literal › `enum` union › the broad type. */
type InferScalar<S, Broad> = S extends {readonly const: infer C} ? C : S extends {readonly enum: readonly (infer E)[]} ? E : Broad;

/** Keys whose property schema says `required: true`. */
type RequiredKeys<P> = {[K in keyof P]-?: P[K] extends {readonly required: true} ? K : never}[keyof P];

/** Spell an intersection out as one object type, for readable hovers. */
type Flatten<T> = {[K in keyof T]: T[K]} & {};

type InferProperties<P, D extends Depth> = Flatten<
	{-readonly [K in RequiredKeys<P> & string]: InferValue<P[K], D>} & {
		-readonly [K in Exclude<keyof P & string, RequiredKeys<P>>]?: InferValue<P[K], D>;
	}
>;

/** Only a literal `additionalProperties: false` closes an object; a broad `boolean` infers as open. */
type InferObject<S, D extends Depth> = S extends {readonly properties: infer P}
	? S extends {readonly additionalProperties: false}
		? InferProperties<P, Deeper<D>>
		: InferProperties<P, Deeper<D>> & Record<string, JsonValue>
	: S extends {readonly additionalProperties: false}
		? Record<string, never>
		: Record<string, JsonValue>;

type InferBranches<B, D extends Depth> = B extends unknown ? InferValue<B, Deeper<D>> : never;

/**
The TypeScript type a `ValueSchemaSpec` accepts. `D` counts enclosing containers; at 16 the type
is `JsonValue` (runtime validation has no such bound).
*/
export type InferValue<S, D extends Depth = []> = D['length'] extends InferenceBound
	? JsonValue
	: S extends {readonly oneOf: readonly (infer B)[]}
		? InferBranches<B, D>
		: S extends {readonly type: infer T}
			? T extends 'string'
				? InferScalar<S, string>
				: T extends 'number' | 'integer'
					? InferScalar<S, number>
					: T extends 'boolean'
						? InferScalar<S, boolean>
						: T extends 'null'
							? null
							: T extends 'array'
								? S extends {readonly items: infer I}
									? Array<InferValue<I, Deeper<D>>>
									: JsonValue[]
								: T extends 'object'
									? InferObject<S, D>
									: JsonValue
			: JsonValue;

/** The arguments a `ParameterSchemaSpec` accepts: `required: true` keys are required, the rest optional. */
export type InferArgs<P> = InferProperties<P, []>;
