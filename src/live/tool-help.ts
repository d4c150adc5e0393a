/**
@module What `/tools` and `/help TOOL` show: a tool's description and its parameters, read from the
JSON Schema the tool registers (the schema the model is given), so the help never drifts from it.
*/
import {isJsonObject} from '../json/is-plain-record.js';
import type {StyledLine} from '../layout/text/styled-line.js';
import {sanitizeInline} from '../layout/text/sanitize.js';
import type {ToolSchema} from '../tools/types.js';

type Parameter = {readonly name: string; readonly type: string; readonly required: boolean; readonly description: string};


/** A schema node's type as one word: `string`, `number[]`, `"a" | "b"`, `object`. */
function typeName(node: unknown): string {
	if (!isJsonObject(node)) {
		return 'any';
	}

	if (Array.isArray(node.enum)) {
		return node.enum.map(value => JSON.stringify(value)).join(' | ');
	}

	if (node.type === 'array') {
		return `${typeName(node.items)}[]`;
	}

	if (Array.isArray(node.type)) {
		return node.type.join(' | ');
	}

	if (typeof node.type === 'string') {
		return node.type;
	}

	const choices = Array.isArray(node.anyOf) ? node.anyOf : (Array.isArray(node.oneOf) ? node.oneOf : undefined);
	return choices === undefined ? 'any' : choices.map(choice => typeName(choice)).join(' | ');
}

/** The top-level parameters of a tool's schema, in schema order. */
export function toolParameters(tool: ToolSchema): Parameter[] {
	const properties = isJsonObject(tool.parameters.properties) ? tool.parameters.properties : {};
	const required = new Set(Array.isArray(tool.parameters.required) ? tool.parameters.required.filter(name => typeof name === 'string') : []);
	return Object.entries(properties).map(([name, node]) => ({
		name,
		type: typeName(node),
		required: required.has(name),
		description: isJsonObject(node) && typeof node.description === 'string' ? node.description : '',
	}));
}

/** One line per parameter (`name  type  required  what it is`), columns aligned. */
function parameterLines(tool: ToolSchema, indent: string): StyledLine[] {
	const parameters = toolParameters(tool);
	if (parameters.length === 0) {
		return [{spans: [{text: `${indent}no parameters`, style: {dim: true}}]}];
	}

	let nameWidth = 0;
	let typeWidth = 0;
	for (const parameter of parameters) {
		nameWidth = Math.max(nameWidth, parameter.name.length);
		typeWidth = Math.max(typeWidth, Math.min(30, parameter.type.length));
	}

	return parameters.map(parameter => ({spans: [
		{text: `${indent}${sanitizeInline(parameter.name).padEnd(nameWidth)}  `, style: {bold: true}},
		{text: `${sanitizeInline(parameter.type).padEnd(typeWidth)}  `},
		{text: parameter.required ? 'required  ' : 'optional  ', style: {dim: true}},
		{text: sanitizeInline(parameter.description.split('\n', 1)[0] ?? ''), style: {dim: true}},
	]}));
}

/** `/help TOOL`: the name, the whole description, then the parameters. */
export function toolHelpLines(tool: ToolSchema): StyledLine[] {
	const lines: StyledLine[] = [{spans: [{text: sanitizeInline(tool.name), style: {bold: true}}, {text: '  call it as: ', style: {dim: true}}, {text: `${sanitizeInline(tool.name)} {json}`}]}];
	for (const line of tool.description.split('\n')) {
		lines.push({spans: [{text: `  ${sanitizeInline(line)}`}]});
	}

	lines.push({spans: [{text: 'Parameters', style: {bold: true}}]});
	for (const line of parameterLines(tool, '  ')) {
		lines.push(line);
	}

	return lines;
}

/** `/tools`: every tool with the first line of its description and its parameters. */
export function toolListLines(tools: readonly ToolSchema[]): StyledLine[] {
	const lines: StyledLine[] = [{spans: [{text: 'Tools', style: {bold: true}}, {text: ' (/help TOOL shows one in full)', style: {dim: true}}]}];
	for (const tool of tools) {
		lines.push({spans: [{text: `  ${sanitizeInline(tool.name)}`, style: {bold: true}}, {text: `  ${sanitizeInline(tool.description.split('\n', 1)[0] ?? '')}`, style: {dim: true}}]});
		for (const line of parameterLines(tool, '      ')) {
			lines.push(line);
		}
	}

	return lines;
}
