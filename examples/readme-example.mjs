import {defineTool, ToolRegistry} from 'cardterm';

const greet = defineTool({
	name: 'greet',
	description: 'Greet someone by name.',
	parameters: {name: {type: 'string', required: true}},
	output: {
		schema: {type: 'object', additionalProperties: false, properties: {greeting: {type: 'string', required: true}}},
		render: (_args, value) => [{type: 'text', text: value.greeting}],
	},
	presentCall: args => ({card: 'generic', title: `Greet ${args.name}`}),
	async execute(args) {
		return {greeting: `Hello, ${args.name}!`};
	},
});

const registry = new ToolRegistry();
registry.register(greet);
const result = await registry.execute({callId: 'c1', name: 'greet', arguments: {name: 'Ada'}, signal: new AbortController().signal});
console.log(result.content); // [ { type: 'text', text: 'Hello, Ada!' } ]
